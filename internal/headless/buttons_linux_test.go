//go:build linux

package headless

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testkit"
)

// AT-SPI state bits (atspi-constants.h), in the first word of GetState.
const (
	stateEnabled   = 8
	stateSensitive = 24
	stateShowing   = 25
	stateVisible   = 30
)

// TestFixtureButtons drives add_button, set_sensitive and remove_buttons on each fixture and checks both the
// app's own state and what AT-SPI shows of the buttons: their sensitivity, that they are on screen, and that
// an AT-SPI click counts.
func TestFixtureButtons(t *testing.T) {
	s := startSession(t)
	for _, kind := range []string{KindGTK3, KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			app, err := s.StartApp(testkit.Context(t, 15*time.Second), kind)
			if err != nil {
				t.Fatal(err)
			}
			testButtons(t, s, app)
		})
	}
}

func testButtons(t *testing.T, s *Session, app *App) {
	ctx := testkit.Context(t, 30*time.Second)
	do := func(req map[string]any) map[string]any {
		t.Helper()
		r, err := app.Do(ctx, req)
		if err != nil {
			t.Fatalf("%v: %v", req, err)
		}
		return r
	}
	state := func() State {
		t.Helper()
		st, err := app.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	// until polls the app's state until ok says it is there.
	until := func(what string, ok func(State) bool) State {
		t.Helper()
		var st State
		if !testkit.Within(3*time.Second, func() bool { st = state(); return ok(st) }) {
			t.Fatalf("%s: not within 3 s: buttons %+v", what, st.Buttons)
		}
		return st
	}

	if st := state(); st.Buttons == nil || len(st.Buttons) != 0 {
		t.Fatalf("initial buttons %#v, want []", st.Buttons)
	}
	if r := do(map[string]any{"cmd": "add_button", "label": "Apply"}); r["index"] != 0.0 || r["sensitive"] != true {
		t.Errorf("first add_button: %v", r)
	}
	if r := do(map[string]any{"cmd": "add_button", "label": "Apply", "sensitive": false}); r["index"] != 1.0 || r["sensitive"] != false {
		t.Errorf("second add_button: %v", r)
	}
	st := state()
	if len(st.Buttons) != 2 || st.Buttons[0] != (Button{Label: "Apply", Index: 0, Sensitive: true}) ||
		st.Buttons[1] != (Button{Label: "Apply", Index: 1}) {
		t.Fatalf("buttons after add_button: %+v", st.Buttons)
	}

	// Bad requests are refused and change nothing.
	for _, req := range []map[string]any{
		{"cmd": "add_button"}, {"cmd": "add_button", "label": ""}, {"cmd": "add_button", "label": 3},
		{"cmd": "add_button", "label": "Apply", "sensitive": "yes"},
		{"cmd": "set_sensitive", "label": "Apply"}, {"cmd": "set_sensitive", "label": "Nope", "sensitive": true},
		{"cmd": "set_sensitive", "label": "Apply", "sensitive": 1},
		{"cmd": "set_sensitive", "label": "Apply", "index": 2, "sensitive": true},
		{"cmd": "set_sensitive", "label": "Apply", "index": -1, "sensitive": true},
		{"cmd": "set_sensitive", "label": "Apply", "index": 1.5, "sensitive": true},
		{"cmd": "set_sensitive", "label": "Other", "index": 0, "sensitive": true},
		{"cmd": "set_sensitive", "label": "Apply", "sensitive": true, "after_ms": -1},
		{"cmd": "set_sensitive", "label": "Apply", "sensitive": true, "after_ms": "soon"},
	} {
		_, err := app.Do(ctx, req)
		var ce *ControlError
		if !errors.As(err, &ce) || ce.Message == "" {
			t.Errorf("%v: %v, want a refusal", req, err)
		}
	}
	if st := state(); len(st.Buttons) != 2 || !st.Buttons[0].Sensitive || st.Buttons[1].Sensitive || st.Buttons[1].SensitiveAt != 0 {
		t.Fatalf("buttons after bad requests: %+v", st.Buttons)
	}

	// AT-SPI: both on screen, the second not sensitive.
	buttons := func(sensitive ...bool) []node {
		t.Helper()
		var got []node
		if !testkit.Within(3*time.Second, func() bool {
			got = apply(ctx, t, s, app)
			ok := len(got) == len(sensitive)
			for i := 0; ok && i < len(got); i++ {
				st := atspiStates(ctx, t, got[i])
				// GTK 4.8 sets SENSITIVE but never ENABLED.
				ok = (st&(1<<stateSensitive) != 0) == sensitive[i] && (app.Kind == KindGTK4 || (st&(1<<stateEnabled) != 0) == sensitive[i])
			}
			return ok
		}) {
			var states []uint32
			for _, n := range got {
				states = append(states, atspiStates(ctx, t, n))
			}
			t.Fatalf("AT-SPI: %d Apply buttons with states %#x, want %d with sensitive %v", len(got), states, len(sensitive), sensitive)
		}
		return got
	}
	for i, n := range buttons(true, false) {
		// GTK 4.8 sets SHOWING nowhere.
		if st := atspiStates(ctx, t, n); (app.Kind == KindGTK3 && st&(1<<stateShowing) == 0) || st&(1<<stateVisible) == 0 {
			t.Errorf("Apply %d: states %#x, want showing (GTK 3) and visible", i, st)
		}
		var r struct{ X, Y, W, H int32 }
		if err := n.obj.CallWithContext(ctx, "org.a11y.atspi.Component.GetExtents", 0, uint32(0)).Store(&r); err != nil {
			t.Fatal(err)
		}
		if r.W <= 0 || r.H <= 0 || r.X < 0 || r.Y < 0 || r.X+r.W > 800 || r.Y+r.H > 700 {
			t.Errorf("Apply %d at %+v, want inside the 800x700 window", i, r)
		}
		t.Logf("Apply %d at %+v", i, r)
	}

	// Sensitive 100 ms later: the app says when.
	r := do(map[string]any{"cmd": "set_sensitive", "label": "Apply", "index": 1, "sensitive": true, "after_ms": 100})
	asked := r["t_ns"].(int64)
	if st := state(); st.Buttons[1].Sensitive || st.Buttons[1].SensitiveAt != 0 {
		t.Errorf("sensitive at once: %+v", st.Buttons[1])
	}
	st = until("sensitive after 100 ms", func(st State) bool { return st.Buttons[1].Sensitive })
	if d := time.Duration(st.Buttons[1].SensitiveAt - asked); d < 99*time.Millisecond || d > 600*time.Millisecond {
		t.Errorf("sensitive %v after the request, want about 100 ms", d)
	} else {
		t.Logf("sensitive %v after the request", d.Round(100*time.Microsecond))
	}
	if st.Buttons[0].SensitiveAt != 0 || !st.Buttons[0].Sensitive {
		t.Errorf("index 1 only, but the first button is %+v", st.Buttons[0])
	}

	// Clicks over AT-SPI count, each on its own button.
	nodes := buttons(true, true)
	before := time.Now().UnixNano()
	doAction(ctx, t, nodes[1])
	st = until("the second button's click", func(st State) bool { return st.Buttons[1].Clicks == 1 })
	if st.Buttons[0].Clicks != 0 || st.Buttons[1].ClickedAt < before || st.Buttons[1].ClickedAt > st.T {
		t.Errorf("after clicking the second: %+v", st.Buttons)
	}
	doAction(ctx, t, nodes[0])
	until("the first button's click", func(st State) bool { return st.Buttons[0].Clicks == 1 && st.Buttons[1].Clicks == 1 })

	// No index: every button of the label, at once.
	r = do(map[string]any{"cmd": "set_sensitive", "label": "Apply", "sensitive": false})
	if ix, _ := r["indexes"].([]any); len(ix) != 2 {
		t.Errorf("set_sensitive without an index: %v", r)
	}
	st = state()
	for _, b := range st.Buttons {
		if b.Sensitive || b.SensitiveAt < asked || b.SensitiveAt > r["t_ns"].(int64) {
			t.Errorf("after set_sensitive of all: %+v", b)
		}
	}
	buttons(false, false)

	if r := do(map[string]any{"cmd": "remove_buttons"}); r["removed"] != 2.0 {
		t.Errorf("remove_buttons: %v", r)
	}
	if st := state(); len(st.Buttons) != 0 {
		t.Errorf("buttons after remove_buttons: %+v", st.Buttons)
	}
	buttons()
	if r := do(map[string]any{"cmd": "add_button", "label": "Apply"}); r["index"] != 0.0 {
		t.Errorf("add_button after remove_buttons: %v", r)
	}
}

// apply walks the app's tree and returns its push buttons named "Apply", in tree order.
func apply(ctx context.Context, t *testing.T, s *Session, app *App) []node {
	t.Helper()
	bus, err := s.WaitRegistered(ctx, app.PID, true)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []node
	if err := walkTree(ctx, s.aconn, bus, registryRoot, 0, &nodes); err != nil {
		t.Fatal(err)
	}
	var out []node
	for _, n := range nodes {
		if n.role == rolePushButton && n.name == "Apply" {
			out = append(out, n)
		}
	}
	return out
}

// atspiStates is the first word of an element's AT-SPI state set.
func atspiStates(ctx context.Context, t *testing.T, n node) uint32 {
	t.Helper()
	var st []uint32
	if err := n.obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetState", 0).Store(&st); err != nil || len(st) == 0 {
		t.Fatalf("GetState of %q: %v %v", n.name, st, err)
	}
	return st[0]
}
