package atspi

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

// browserSession is a session of its own showing page in Chromium started with args: nothing
// else reads the browser.
func browserSession(t *testing.T, page string, args ...string) (*headless.Session, *headless.Browser) {
	t.Helper()
	if err := headless.Available(); err != nil {
		t.Fatalf("%v (make deps installs it)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := headless.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	b, err := s.StartBrowser(ctx, page, args...)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// webWalk walks the browser's first window whole.
func webWalk(t *testing.T, b *Backend, pid int) observer.WalkResult {
	t.Helper()
	wins, err := b.Windows(testkit.Context(t, 10*time.Second), pid)
	if err != nil || len(wins) == 0 {
		t.Fatalf("windows: %v %v", wins, err)
	}
	return observer.Walk(testkit.Context(t, 30*time.Second), b, wins[0].Ref, observer.WalkOptions{Budget: model.WholeBudget()})
}

// A Chromium started without --force-renderer-accessibility builds its page's tree only once read
// (its attributes asked): the backend's walks reach the page. The first may come before the page
// is loaded (the browser shows its window first), so walks are repeated until the page's Save
// button is reached; without the build on read none would.
func TestChromiumPageReadWithoutTheForceSwitch(t *testing.T) {
	s, br := browserSession(t, "page.html", "--disable-renderer-accessibility") // the harness leaves out the force switch
	b := open(t, s)
	walks, last := 0, 0
	if !testkit.Within(15*time.Second, func() bool {
		walks++
		w := webWalk(t, b, br.PID)
		last = len(w.Nodes)
		return slices.ContainsFunc(w.Nodes, func(n observer.Walked) bool { return n.Role == model.RoleButton && n.Name == "Save" })
	}) {
		t.Fatalf("%d walks in 15 s (the last %d elements) never reach the page's Save button", walks, last)
	}
	t.Logf("walk %d (%d elements) reaches the page's Save button", walks, last)
}

// Chromium leaves GetActions' names empty: the backend asks GetName, lists the actions of what
// a user acts on, and performs an action by index.
func TestChromiumActions(t *testing.T) {
	s, br := browserSession(t, "page.html")
	b := open(t, s)
	w := webWalk(t, b, br.PID)
	var save, static *observer.Walked
	for i := range w.Nodes {
		n := &w.Nodes[i]
		switch {
		case n.Identifier == "save":
			save = n
		case n.Role == model.RoleText && n.Name == "Web fixture":
			static = n
		}
	}
	if save == nil || static == nil {
		t.Fatalf("no Save button or heading text in %d elements", len(w.Nodes))
	}
	if !slices.Equal(save.Actions, []string{"press", "showContextMenu"}) {
		t.Fatalf("Save's actions: %q", save.Actions)
	}
	if len(static.Actions) != 0 {
		t.Fatalf("a text run lists actions: %q", static.Actions)
	}
	if err := b.Perform(testkit.Context(t, 5*time.Second), static.Ref, "doDefault"); err != nil {
		t.Fatalf("an unlisted action is still performed: %v", err)
	}
	if err := b.Perform(testkit.Context(t, 5*time.Second), save.Ref, "0"); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 5*time.Second, "the page shows Saved", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		raw, err := br.Eval(ctx, `document.getElementById('messages').textContent`)
		var got string
		return err == nil && json.Unmarshal(raw, &got) == nil && got == "Saved"
	})
	if err := b.Perform(testkit.Context(t, 5*time.Second), save.Ref, "7"); model.CodeOf(err) != model.CodeNotSupported {
		t.Fatalf("an action index out of range: %v", err)
	}
}
