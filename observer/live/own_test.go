package live

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// The copies keep no string of a read: a backend's strings may share one buffer per reply, and
// a copy holding one would hold the whole buffer (godbus: 4 KB per reply).
func TestCopiesOwnTheirStrings(t *testing.T) {
	buf := strings.Repeat("x", 4096)
	inBuf := func(s string) bool {
		if s == "" {
			return false
		}
		p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(buf)))
		return p >= start && p < start+uintptr(len(buf))
	}
	m := sampleTree()
	for ref, n := range m.nodes {
		n.Name, n.PlatformRole, n.Description = buf[:len(ref)+1], buf[8:16], buf[16:32]
		n.Value, n.HasValue, n.Text, n.Actions = buf[32:40], true, buf[40:48], []string{buf[48:56]}
		n.Bounds = &model.Rect{W: 10, H: 10}
	}
	check := func(what string, tree *polledTree) {
		t.Helper()
		for ref, e := range tree.elems {
			d := e.DiffElement
			if inBuf(d.Name) || inBuf(d.PlatformRole) || inBuf(d.Text) || (d.Value != nil && inBuf(*d.Value)) || d.Bounds == m.nodes[ref].Bounds {
				t.Errorf("%s: %s's summary keeps the read's memory", what, ref)
			}
			if n := e.node; n != nil && (inBuf(n.Name) || inBuf(n.Description) || inBuf(n.Value) || inBuf(n.Actions[0])) {
				t.Errorf("%s: %s's node keeps the read's memory", what, ref)
			}
		}
	}
	w := observer.Walk(context.Background(), m, "win", observer.WalkOptions{Budget: model.WideBudget()})
	check("poller", pollTree(model.Window{ID: "win", Ref: "win"}, &w, model.WideBudget()))
	check("live window", liveTree(model.Window{ID: "win", Ref: "win"}, &w, model.WideBudget()))

	tree := pollTree(model.Window{ID: "win", Ref: "win"}, &w, model.WideBudget())
	m.nodes["a"].Name = buf[100:120] // a change re-read by an event
	applyMarks(context.Background(), m, tree, markedSelf("a"))
	check("poller after a change", tree)
}
