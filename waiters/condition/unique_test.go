package condition

import (
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// A recorded step's locator finds its element again and only it: role and name when that is
// unique; within a named ancestor when not; nth when nothing else tells them apart; a dialog's
// element within the dialog.
func TestUniqueLocator(t *testing.T) {
	node := func(i, parent, depth int, role model.Role, name string) observer.Walked {
		return observer.Walked{Node: model.Node{Ref: model.NodeRef(rune('a' + i)), Role: role, Name: name}, Index: i, Parent: parent, Depth: depth}
	}
	nodes := []observer.Walked{
		node(0, -1, 0, model.RoleWindow, "Editor"),
		node(1, 0, 1, model.RoleButton, "Save"),
		node(2, 0, 1, model.RoleGroup, "Billing"),
		node(3, 2, 2, model.RoleTextField, "Name"),
		node(4, 0, 1, model.RoleGroup, "Shipping"),
		node(5, 4, 2, model.RoleTextField, "Name"),
		node(6, 0, 1, model.RoleGroup, ""),
		node(7, 6, 2, model.RoleButton, "Remove"),
		node(8, 0, 1, model.RoleGroup, ""),
		node(9, 8, 2, model.RoleButton, "Remove"),
	}
	nodes[6].Identifier = "row-1"
	win := model.Window{ID: "w", Title: "Editor", Role: model.RoleWindow}
	for _, c := range []struct {
		index int
		want  string
	}{
		{1, `role=button,name=Save`},
		{5, `role=group,name=Shipping >> role=text_field,name=Name`},
		{7, `role=group,identifier=row-1 >> role=button,name=Remove`},
		{9, `role=button,name=Remove,nth=2`},
	} {
		l := UniqueLocator(win, nodes, c.index)
		if l == nil || l.String() != c.want {
			t.Errorf("element %d: %v, want %s", c.index, l, c.want)
			continue
		}
		back, err := ParseLocator(l.String())
		if err != nil {
			t.Fatalf("%s does not parse: %v", l, err)
		}
		if found := back.Find([]Tree{walked{win, nodes}}, nil); len(found) != 1 || found[0].Node.Ref != nodes[c.index].Ref {
			t.Errorf("%s finds %d elements", l, len(found))
		}
	}
	dialog := model.Window{ID: "d", Title: "Saved", Role: model.RoleDialog}
	if l := UniqueLocator(dialog, []observer.Walked{node(0, -1, 0, model.RoleDialog, "Saved"), node(1, 0, 1, model.RoleButton, "OK")}, 1); l.String() != `dialog:title=Saved >> role=button,name=OK` {
		t.Errorf("a dialog's button: %s", l)
	}
	if UniqueLocator(win, nodes, 10) != nil {
		t.Error("an index past the walk has a locator")
	}
}
