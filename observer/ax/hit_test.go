package ax

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/axbus/axbus/model"
)

// fakeTree is a parent chain for climbHitPath: role and parent by handle, and the handles
// stepped on.
type fakeTree struct {
	role    map[model.NodeRef]string
	parent  map[model.NodeRef]model.NodeRef
	stepped []model.NodeRef
}

func (f *fakeTree) step(ref model.NodeRef) (string, model.NodeRef, error) {
	f.stepped = append(f.stepped, ref)
	if ref == "gone" {
		return "", "", errors.New("invalid element")
	}
	return f.role[ref], f.parent[ref], nil
}

func newFakeTree() *fakeTree {
	return &fakeTree{
		role: map[model.NodeRef]string{"app": "AXApplication", "win": "AXWindow", "sheet": "AXSheet",
			"group": "AXGroup", "ok": "AXButton", "menubar": "AXMenuBar", "item": "AXMenuBarItem"},
		parent: map[model.NodeRef]model.NodeRef{"win": "app", "sheet": "win", "group": "win", "ok": "group",
			"menubar": "app", "item": "menubar", "orphan": ""},
	}
}

func TestClimbHitPath(t *testing.T) {
	for _, tc := range []struct {
		name          string
		deepest, win  model.NodeRef
		want, stepped []model.NodeRef
	}{
		{"up to the window", "ok", "win", []model.NodeRef{"win", "group", "ok"}, []model.NodeRef{"ok", "group"}},
		{"another window on top", "ok", "other", []model.NodeRef{"win", "group", "ok"}, []model.NodeRef{"ok", "group", "win"}},
		{"stops at the sheet asked about", "sheet", "sheet", []model.NodeRef{"sheet"}, nil},
		{"the menu bar, outside any window", "item", "win", []model.NodeRef{"app", "menubar", "item"}, []model.NodeRef{"item", "menubar", "app"}},
		{"no parent", "orphan", "win", []model.NodeRef{"orphan"}, []model.NodeRef{"orphan"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeTree()
			got, err := climbHitPath(tc.deepest, tc.win, f.step)
			if err != nil || !slices.Equal(got, tc.want) || !slices.Equal(f.stepped, tc.stepped) {
				t.Errorf("climbHitPath(%s) = %v, %v after stepping on %v; want %v after %v", tc.deepest, got, err, f.stepped, tc.want, tc.stepped)
			}
		})
	}
}

func TestClimbHitPathIsBounded(t *testing.T) {
	f := newFakeTree()
	f.parent["a"], f.parent["b"] = "b", "a" // a cycle
	if got, err := climbHitPath("a", "win", f.step); err != nil || !slices.Equal(got, []model.NodeRef{"b", "a"}) {
		t.Errorf("a cycle: %v, %v", got, err)
	}
	f = newFakeTree()
	for i := range 1000 { // a chain far deeper than any window
		f.parent[model.NodeRef(strconv.Itoa(i))] = model.NodeRef(strconv.Itoa(i + 1))
	}
	got, err := climbHitPath("0", "win", f.step)
	if err != nil || len(got) != maxHitDepth || got[len(got)-1] != "0" || len(f.stepped) != maxHitDepth {
		t.Errorf("a deep chain: %d elements ending %v, %d steps, %v", len(got), got[len(got)-1:], len(f.stepped), err)
	}
	f = newFakeTree()
	f.parent["ok"] = "gone"
	if _, err := climbHitPath("ok", "win", f.step); err == nil {
		t.Error("a step's error was dropped")
	}
}
