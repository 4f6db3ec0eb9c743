package text

import (
	"context"
	"slices"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// walkReader reads the elements of a walk by their handles: an app whose tree is w.
type walkReader struct {
	w     observer.WalkResult
	reads int
}

func (r *walkReader) Read(_ context.Context, refs []model.NodeRef) []model.Node {
	r.reads += len(refs)
	out := make([]model.Node, len(refs))
	for i, ref := range refs {
		out[i] = model.Node{Ref: ref, Err: model.Errorf(model.CodeElementNotFound, "-", "gone")}
		for _, n := range r.w.Nodes {
			if n.Ref == ref {
				out[i] = n.Node
			}
		}
	}
	return out
}

// pathTo is element i of w with its ancestors, its window first.
func pathTo(w observer.WalkResult, i int) []model.Node {
	var path []model.Node
	for ; i >= 0; i = w.Nodes[i].Parent {
		path = append([]model.Node{w.Nodes[i].Node}, path...)
	}
	return path
}

// hiddenPathTrees are windows as AT-SPI toolkits show them, with elements hidden and elements
// merely out of view.
func hiddenPathTrees() map[string]tnode {
	row := func(st model.States, name string, r *model.Rect) tnode {
		return with(st, el(model.RoleListItem, "", r, with(st, el(model.RoleLabel, name, r))))
	}
	page := func(st model.States, text string) tnode {
		return with(st, el(model.RoleWebArea, "", at(0, 100, 1000, 800), with(st, el(model.RoleParagraph, text, at(0, 110, 900, 20)))))
	}
	return map[string]tnode{
		"writer": writerLike(),
		// GTK3's stack shows one page: the other, unmapped, keeps its states but no place.
		"gtk3 stack": with(shownStates, window(
			with(shownStates, el(model.RolePanel, "Pages", at(10, 100, 300, 40),
				with(visibleStates|model.StateEnabled, el(model.RoleCheckbox, "Notify me", nil)),
				with(shownStates, el(model.RoleLabel, "Second page", at(10, 100, 300, 40))),
			)),
			with(shownStates, el(model.RoleScrollArea, "", at(400, 0, 400, 200),
				with(shownStates, el(model.RoleList, "Rows", at(400, 0, 400, 8000),
					row(shownStates, "Row 1", at(400, 0, 400, 20)),
					row(visibleStates, "Row 400", nil), // scrolled out: no place, in a list past its clip
				)),
			)),
		)),
		// A browser's tab behind the one shown; web content below the fold; a WebKitGTK page
		// under its socket and plug, which report no state at all.
		"browser": with(shownStates, window(
			with(shownStates, el(model.RolePanel, "", at(0, 100, 1000, 800),
				page(shownStates, "The page shown"),
				page(visibleStates, "Search the web"),
			)),
			with(shownStates, el(model.RoleWebArea, "Page", at(0, 200, 1000, 800),
				with(visibleStates, el(model.RoleButton, "Below the fold", at(0, 5000, 90, 20))),
			)),
			el(model.RoleFiller, "", at(0, 0, 640, 480),
				el(model.RoleFiller, "", at(0, 0, 640, 480), with(model.StateEnabled, el(model.RoleButton, "Web button", at(8, 8, 80, 20)))),
			),
		)),
	}
}

// HiddenOnPath, from an element's path alone, tells what read's rule tells from the whole
// window: an element is hidden when it or an ancestor is marked hidden.
func TestHiddenOnPathAgreesWithRead(t *testing.T) {
	for name, root := range hiddenPathTrees() {
		w := walkOf(root)
		marked := observer.HiddenIn(w.Nodes, 0, len(w.Nodes))
		hidden := 0
		for i := range w.Nodes {
			want := -1
			for j := i; j > 0; j = w.Nodes[j].Parent {
				if marked[j] {
					want = j
				}
			}
			path := pathTo(w, i)
			got := observer.HiddenOnPath(context.Background(), &walkReader{w: w}, path)
			if want >= 0 {
				hidden++
			}
			if (got < 0) != (want < 0) || got >= 0 && path[got].Ref != w.Nodes[want].Ref {
				t.Errorf("%s: %s %q: hidden by path %d, read marks %d", name, w.Nodes[i].Role, w.Nodes[i].Name, got, want)
			}
		}
		if hidden == 0 {
			t.Errorf("%s: nothing hidden: the tree tests nothing", name)
		}
	}
}

// Siblings are read only for an element that could lie behind one (the tab behind, and what it
// holds): none for one hidden outright or scrolled out of view.
func TestHiddenOnPathReadsSiblingsOnlyWhenNeeded(t *testing.T) {
	w := walkOf(hiddenPathTrees()["browser"])
	for i := range w.Nodes {
		r := &walkReader{w: w}
		path := pathTo(w, i)
		observer.HiddenOnPath(context.Background(), r, path)
		behind := slices.ContainsFunc(path, func(n model.Node) bool {
			return n.Role == model.RoleWebArea && !n.States.Has(model.StateShowing)
		})
		if (r.reads > 0) != behind {
			t.Errorf("%s %q: %d siblings read", w.Nodes[i].Role, w.Nodes[i].Name, r.reads)
		}
	}
}
