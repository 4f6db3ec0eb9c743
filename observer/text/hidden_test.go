package text

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

// The states of hidden-element trees as AT-SPI toolkits report them.
const (
	shownStates   = model.StateShowing | model.StateVisible // on screen
	visibleStates = model.StateVisible                      // shown, but not on screen now
)

// with is n with states st.
func with(st model.States, n tnode) tnode { n.States = st; return n }

// editable is an editable element whose text the backend read as its value (a document's
// paragraph).
func editable(role model.Role, value string, r *model.Rect) tnode {
	n := field(role, "", value, r)
	n.States = shownStates | model.StateEditable
	return n
}

// writerLike is a LibreOffice Writer window: a menu bar whose menus are closed, a toolbar that
// overflows, a hidden label, and the document's paragraphs.
func writerLike() tnode {
	return with(shownStates, window(
		with(shownStates, el(model.RoleMenuBar, "", at(0, 0, 1000, 20),
			with(shownStates, el(model.RoleMenu, "File", at(0, 0, 40, 20),
				with(visibleStates, el(model.RoleMenuItem, "Text Document", nil)), // a closed GTK menu: visible, nowhere
				with(visibleStates, el(model.RoleMenu, "Recent Documents", nil, with(visibleStates, el(model.RoleMenuItem, "notes.odt", nil)))),
			)),
			with(shownStates, el(model.RoleMenu, "Edit", at(40, 0, 40, 20),
				with(model.StateEnabled, el(model.RoleMenuItem, "Undo", nil)), // a closed VCL menu: neither visible nor showing
			)),
		)),
		with(shownStates, el(model.RoleToolbar, "Standard", at(0, 20, 1000, 30),
			with(shownStates, el(model.RoleButton, "Save", at(0, 20, 40, 30))),
			with(shownStates, el(model.RoleButton, "Print", at(40, 20, 40, 30))),
			with(visibleStates, el(model.RoleButton, "Line Spacing", nil)), // no room for it
		)),
		with(model.StateEnabled, el(model.RoleLabel, "Hidden label", at(0, 50, 100, 20))), // a hidden widget keeps its old bounds
		with(shownStates|model.StateEditable, el(model.RoleGroup, "Untitled 1", at(0, 60, 1000, 900),
			editable(model.RoleParagraph, "Hello from the document body.", at(100, 100, 800, 20)),
			editable(model.RoleParagraph, "A second paragraph.", at(100, 120, 800, 20)),
		)),
	))
}

func TestAssembleTextLeavesHiddenSubtreesOut(t *testing.T) {
	w := walkOf(writerLike())
	got := AssembleWith(w, 0, Options{})
	// The menus' titles are on screen, their items not.
	expectText(t, got.Text, "File Edit\nSave Print\nHello from the document body.\nA second paragraph.")
	// Text Document, Recent Documents (with its item), Undo, Line Spacing, Hidden label.
	if got.Hidden != 5 || got.Lines != 4 || got.Truncated || got.Omitted != 0 {
		t.Errorf("hidden %d, lines %d, truncated %v, omitted %d; want 5, 4, false, 0", got.Hidden, got.Lines, got.Truncated, got.Omitted)
	}
	if text, _, _, _ := Assemble(w, 0, 0); text != got.Text {
		t.Errorf("Assemble reads hidden elements:\n%s", text)
	}
}

// WebKitGTK's web view is a socket whose child, the page's root in the web process, is its plug:
// both report no state at all, and the page under them shows.
func TestAssembleTextReadsThroughStatelessElements(t *testing.T) {
	w := walkOf(with(shownStates, window(
		el(model.RoleFiller, "", at(0, 0, 640, 480), // the socket
			el(model.RoleFiller, "", at(0, 0, 640, 480), // the plug
				with(model.StateEnabled, el(model.RoleScrollArea, "", at(0, 0, 640, 480),
					with(shownStates, el(model.RoleWebArea, "axbus matrix page", at(0, 0, 640, 480),
						with(shownStates, el(model.RoleParagraph, "", at(8, 8, 600, 20), with(shownStates, el(model.RoleText, "First paragraph.", at(8, 8, 100, 20))))),
					)),
				)),
			),
		),
	)))
	if got := AssembleWith(w, 0, Options{}); got.Text != "First paragraph." || got.Hidden != 0 {
		t.Fatalf("read %q, %d hidden: want the page's paragraph", got.Text, got.Hidden)
	}
}

// A browser keeps tabs behind the one shown: in view, visible, not showing, under the tab shown.
func TestAssembleTextLeavesTabsBehindOut(t *testing.T) {
	page := func(st model.States, text string) tnode {
		return with(st, el(model.RoleWebArea, "", at(0, 100, 1000, 800), with(st, el(model.RoleParagraph, text, at(0, 110, 900, 20)))))
	}
	w := walkOf(with(shownStates, window(with(shownStates, el(model.RolePanel, "", at(0, 100, 1000, 800),
		page(shownStates, "The page shown"),
		page(visibleStates, "Search the web"), // Firefox's new-tab page, kept ready
	)))))
	if got := AssembleWith(w, 0, Options{}); got.Text != "The page shown" || got.Hidden != 1 {
		t.Fatalf("read %q, %d hidden: want the shown tab's text alone", got.Text, got.Hidden)
	}
}

func TestAssembleTextAllReadsHiddenElements(t *testing.T) {
	got := AssembleWith(walkOf(writerLike()), 0, Options{All: true})
	for _, s := range []string{"Text Document", "notes.odt", "Undo", "Save Print", "Line Spacing", "Hidden label", "Hello from the document body."} {
		if !strings.Contains(got.Text, s) {
			t.Errorf("all: the text lacks %q:\n%s", s, got.Text)
		}
	}
	if got.Hidden != 0 {
		t.Errorf("all: hidden = %d, want 0", got.Hidden)
	}
	if !(strings.Index(got.Text, "Undo") < strings.Index(got.Text, "Save") && strings.Index(got.Text, "Hidden label") < strings.Index(got.Text, "Hello")) {
		t.Errorf("all: not in tree order:\n%s", got.Text)
	}
}

// An open menu's items lie outside the clip of the menu bar's scroll area (GTK in LibreOffice),
// drawn over the window: in view, so their closed submenus' items are hidden.
func TestAssembleTextOpenMenuHidesClosedSubmenus(t *testing.T) {
	got := AssembleWith(walkOf(with(shownStates, window(
		with(shownStates, el(model.RoleScrollArea, "", at(0, 0, 1000, 20),
			with(shownStates, el(model.RoleMenuBar, "", at(0, 0, 1000, 20),
				with(shownStates, el(model.RoleMenu, "File", at(0, 0, 40, 20),
					// On the menu bar's edge.
					with(shownStates, el(model.RoleMenu, "New", at(0, 20, 300, 25), with(visibleStates, el(model.RoleMenuItem, "Text Document", nil)))),
					with(shownStates, el(model.RoleMenuItem, "Open...", at(0, 45, 300, 25))),
					with(shownStates, el(model.RoleMenu, "Recent Documents", at(0, 70, 300, 25), with(visibleStates, el(model.RoleMenuItem, "No Documents", nil)))),
				)),
			)),
		)),
	))), 0, Options{})
	expectText(t, got.Text, "New\nOpen...\nRecent Documents")
	if got.Hidden != 2 {
		t.Errorf("hidden = %d, want 2", got.Hidden)
	}
}

// A scope inside a hidden subtree is read: the scope names what to read.
func TestAssembleTextScopeInsideHiddenSubtree(t *testing.T) {
	w := walkOf(writerLike())
	recent := -1
	for i := range w.Nodes {
		if w.Nodes[i].Name == "Recent Documents" {
			recent = i
		}
	}
	got := AssembleWith(w, recent, Options{})
	if got.Text != "notes.odt" || got.Hidden != 0 {
		t.Errorf("scope: %q, hidden %d; want %q, 0", got.Text, got.Hidden, "notes.odt")
	}
}

// Content scrolled out of view is not hidden: GTK3's rows lose their bounds but sit in a list
// reaching past its scroll area; web content keeps its bounds below the fold.
func TestAssembleTextKeepsContentScrolledOutOfView(t *testing.T) {
	row := func(st model.States, name string, r *model.Rect) tnode {
		return with(st, el(model.RoleListItem, "", r, with(st, el(model.RoleLabel, name, r))))
	}
	got := AssembleWith(walkOf(with(shownStates, window(
		with(shownStates, el(model.RoleScrollArea, "", at(0, 0, 400, 200),
			with(shownStates, el(model.RoleList, "Rows", at(0, 0, 400, 8000),
				row(shownStates, "Row 1", at(0, 0, 400, 20)),
				// On the clip's edge: shown, its label not.
				with(shownStates, el(model.RoleListItem, "", at(0, 200, 400, 20), with(visibleStates, el(model.RoleLabel, "Row 11", nil)))),
				row(visibleStates, "Row 400", nil),
			)),
		)),
		with(shownStates, el(model.RoleWebArea, "Page", at(0, 200, 1000, 800),
			with(shownStates, el(model.RoleParagraph, "", at(0, 210, 900, 20), with(shownStates, static("At the top", at(0, 210, 900, 20))))),
			with(visibleStates, el(model.RoleParagraph, "", at(0, 5000, 900, 20), with(visibleStates, static("Below the fold", at(0, 5000, 900, 20))))),
		)),
	))), 0, Options{})
	expectText(t, got.Text, "Row 1\nRow 11\nRow 400\nAt the top\nBelow the fold")
	if got.Hidden != 0 {
		t.Errorf("hidden = %d, want 0", got.Hidden)
	}
}

// Browser controls a browser does not show are neither visible nor showing: hidden, bounds or not.
func TestAssembleTextLeavesUnusedBrowserControlsOut(t *testing.T) {
	got := AssembleWith(walkOf(with(shownStates, window(
		with(shownStates, el(model.RolePanel, "", at(0, 0, 1000, 1000),
			with(model.StateEnabled, el(model.RoleButton, "Minimize", nil)),
			with(model.StateEnabled, static("Untitled - Chromium", nil)),
			with(model.StateEnabled, el(model.RolePanel, "", at(0, 50, 1000, 900), static("A view not shown", at(0, 50, 100, 20)))),
			with(shownStates, el(model.RoleButton, "Reload", at(0, 10, 30, 30))),
		)),
	))), 0, Options{})
	expectText(t, got.Text, "Reload")
	if got.Hidden != 3 {
		t.Errorf("hidden = %d, want 3", got.Hidden)
	}
}

// GTK 4.8 reports showing on the window alone, and macOS not at all: nothing is hidden there.
func TestAssembleTextWithoutShowingReadsWhole(t *testing.T) {
	keypad := func(st model.States) tnode {
		return with(st, el(model.RolePanel, "", at(0, 40, 300, 300),
			with(st, el(model.RoleButton, "7", at(0, 40, 50, 40))),
			with(st, el(model.RoleButton, "8", at(50, 40, 50, 40))),
			el(model.RoleLabel, "Mode: basic", nil), // no states, no place
		))
	}
	for name, root := range map[string]tnode{
		"gtk4":   with(shownStates, window(with(visibleStates, el(model.RoleMenuButton, "Basic", at(0, 0, 80, 30))), keypad(visibleStates))),
		"macos":  window(el(model.RoleMenuButton, "Basic", at(0, 0, 80, 30)), keypad(0)),
		"hidden": with(shownStates, window(with(model.StateEnabled, el(model.RoleLabel, "Everything", nil)))),
	} {
		got := AssembleWith(walkOf(root), 0, Options{})
		want, hidden := "Basic\n7 8\nMode: basic", 0
		if name == "hidden" {
			want, hidden = "", 1
		}
		if got.Text != want || got.Hidden != hidden {
			t.Errorf("%s: %q, hidden %d; want %q, %d", name, got.Text, got.Hidden, want, hidden)
		}
	}
}

// An editable element that is not a field gives its value, its text as the backend read it; one
// that is not editable does not (a check box's 0 or 1). Fields keep their own rule.
func TestAssembleTextReadsEditableContentValue(t *testing.T) {
	check := field(model.RoleCheckbox, "Remember me", "1", at(0, 300, 100, 20))
	got := assemble(t, window(
		el(model.RoleGroup, "Document", at(0, 0, 1000, 200),
			editable(model.RoleParagraph, "First paragraph,", at(0, 0, 900, 20)),
			editable(model.RoleParagraph, "", at(0, 20, 900, 20)),
			editable(model.RoleParagraph, "third\nwith a line break.", at(0, 40, 900, 40)),
		),
		editable(model.RoleTextField, "typed", at(0, 250, 100, 20)),
		check,
	))
	expectText(t, got, "First paragraph,\nthird\nwith a line break.\ntyped\nRemember me")
}
