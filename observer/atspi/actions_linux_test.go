//go:build linux

package atspi

import (
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/internal/x11"
	"github.com/axbus/axbus/observer"
)

// Each primitive changes the app, as the app itself reports over its control socket.
func TestActionPrimitives(t *testing.T) {
	s := session(t)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			a := startApp(t, s, kind, "AXBUS_FIXTURE_SAVE_DELAY_MS=0")
			b := open(t, s)
			win := mainWindow(t, b, a)
			res := walk(t, b, win.Ref)
			save := find(t, res, model.RoleButton, "Save")
			name := find(t, res, model.RoleTextField, "Name")
			volume := find(t, res, model.RoleSlider, "Volume")
			remember := find(t, res, model.RoleCheckbox, "Remember me")
			ctx := testkit.Context(t, 30*time.Second)

			// DoAction on Save ("click", whatever case the toolkit uses).
			if err := b.Perform(ctx, save.Ref, "click"); err != nil {
				t.Fatalf("Perform(Save, click): %v", err)
			}
			testkit.Eventually(t, 3*time.Second, "the save to happen", func() bool { return state(t, a).Saves >= 1 })
			do(t, a, map[string]any{"cmd": "close_dialog"})
			err := b.Perform(ctx, save.Ref, "frobnicate")
			if e := model.AsError(err); e == nil || e.Code != model.CodeNotSupported || len(e.Details["actions"].([]string)) == 0 {
				t.Errorf("Perform(frobnicate): %v", err)
			}

			// SetTextContents on Name.
			if err := b.SetAttribute(ctx, name.Ref, "text", "Grace Hopper"); err != nil {
				t.Fatalf("SetAttribute(text): %v", err)
			}
			testkit.Eventually(t, 2*time.Second, "the name to change", func() bool { return state(t, a).Name == "Grace Hopper" })

			// CurrentValue on Volume.
			if err := b.SetAttribute(ctx, volume.Ref, "value", 70.0); err != nil {
				t.Fatalf("SetAttribute(value): %v", err)
			}
			testkit.Eventually(t, 2*time.Second, "the volume to change", func() bool { return state(t, a).Volume == 70 })
			if err := b.SetAttribute(ctx, volume.Ref, "value", "loud"); model.CodeOf(err) != model.CodeBadRequest {
				t.Errorf("SetAttribute(value, loud): %v", err)
			}
			if err := b.SetAttribute(ctx, volume.Ref, "colour", "red"); model.CodeOf(err) != model.CodeNotSupported {
				t.Errorf("SetAttribute(colour): %v", err)
			}

			// GrabFocus on Name (GTK4 4.8 answers it but does nothing: physical input covers it).
			do(t, a, map[string]any{"cmd": "focus", "target": "Save"})
			testkit.Eventually(t, 2*time.Second, "Save to be focused", func() bool { return state(t, a).Focus == "Save" })
			if kind == headless.KindGTK3 {
				if err := b.SetAttribute(ctx, name.Ref, "focus", true); err != nil {
					t.Fatalf("SetAttribute(focus): %v", err)
				}
				testkit.Eventually(t, 2*time.Second, "Name to be focused", func() bool { return state(t, a).Focus == "Name" })
			}

			// Selecting a list row through the list's Selection interface.
			row5 := find(t, res, model.RoleLabel, "Row 5")
			if err := b.SetAttribute(ctx, res.Nodes[row5.Parent].Ref, "selected", true); err != nil {
				t.Fatalf("SetAttribute(selected): %v", err)
			}
			testkit.Eventually(t, 2*time.Second, "row 5 to be selected", func() bool { return state(t, a).SelectedRow == 5 })

			// An XTEST click at the checkbox's centre.
			before := state(t, a).Remember
			n := b.Read(ctx, []model.NodeRef{remember.Ref})[0]
			if n.Err != nil || n.Bounds == nil {
				t.Fatalf("checkbox bounds: %+v", n)
			}
			x, y := n.Bounds.Center()
			if err := b.Input(ctx, observer.Input{Kind: observer.InputClick, PID: a.PID, X: x, Y: y}); err != nil {
				t.Fatalf("click: %v", err)
			}
			testkit.Eventually(t, 2*time.Second, "the click to toggle the checkbox", func() bool { return state(t, a).Remember != before })

			// XTEST typing of non-ASCII text into Name.
			do(t, a, map[string]any{"cmd": "set_text", "text": ""})
			do(t, a, map[string]any{"cmd": "focus", "target": "Name"})
			const text = "héllo wörld ✓"
			if err := b.Input(ctx, observer.Input{Kind: observer.InputType, PID: a.PID, Text: text}); err != nil {
				t.Fatalf("type: %v", err)
			}
			testkit.Eventually(t, 3*time.Second, "the typed text", func() bool { return state(t, a).Name == text })

			// Key combinations: select all, then delete.
			if err := b.Input(ctx, observer.Input{Kind: observer.InputKey, PID: a.PID, Keys: "ctrl+a BackSpace"}); err != nil {
				t.Fatalf("keys: %v", err)
			}
			testkit.Eventually(t, 2*time.Second, "ctrl+a BackSpace to clear the name", func() bool { return state(t, a).Name == "" })
			if err := b.Input(ctx, observer.Input{Kind: observer.InputKey, PID: a.PID, Keys: "hyper+q"}); model.CodeOf(err) != model.CodeBadRequest {
				t.Errorf("bad keys: %v", err)
			}
		})
	}
}

// Without a display physical input is unavailable, with a clear error.
func TestInputWithoutDisplay(t *testing.T) {
	s := session(t)
	b := open(t, s, WithDisplay(""))
	err := b.Input(testkit.Context(t, 5*time.Second), observer.Input{Kind: observer.InputClick, X: 1, Y: 1})
	if e := model.AsError(err); e == nil || e.Code != model.CodeUnavailable {
		t.Fatalf("Input without a display: %v", err)
	}
}

// Giving an app's window the input focus activates the app; a moved window's elements are
// found where they are (GTK4 reports window coordinates: the window's position comes from X).
func TestActivatedAndMovedWindow(t *testing.T) {
	s := session(t)
	a3 := startApp(t, s, headless.KindGTK3)
	a4 := startApp(t, s, headless.KindGTK4)
	b := open(t, s)
	rec := testkit.Record(t, b.Watch)
	ctx := testkit.Context(t, 30*time.Second)
	for _, a := range []*headless.App{a3, a4, a3} {
		m := rec.Mark()
		if err := b.Input(ctx, observer.Input{Kind: observer.InputKey, PID: a.PID, Keys: "shift"}); err != nil {
			t.Fatal(err)
		}
		rec.WaitFor(t, m, 3*time.Second, "app_activated", ofApp(a.PID, model.EventAppActivated, ""))
	}

	win := mainWindow(t, b, a4)
	res := walk(t, b, win.Ref)
	remember := find(t, res, model.RoleCheckbox, "Remember me")
	before := *remember.Bounds
	x, err := b.xconn()
	if err != nil {
		t.Fatal(err)
	}
	wins, err := x.WindowsOf(a4.PID)
	if err != nil || len(wins) == 0 {
		t.Fatalf("X windows of the GTK4 app: %v %v", wins, err)
	}
	const dx, dy = 220, 130
	for _, w := range wins {
		if w.Mapped && w.W > 1 {
			if err := x.Move(w, w.X+dx, w.Y+dy); err != nil {
				t.Fatal(err)
			}
		}
	}
	var after model.Rect
	testkit.Eventually(t, 3*time.Second, "the checkbox to move with its window", func() bool {
		n := b.Read(ctx, []model.NodeRef{remember.Ref})[0]
		if n.Err != nil || n.Bounds == nil {
			return false
		}
		after = *n.Bounds
		return after.X == before.X+dx && after.Y == before.Y+dy
	})
	was := state(t, a4).Remember
	cx, cy := after.Center()
	if err := b.Input(ctx, observer.Input{Kind: observer.InputClick, PID: a4.PID, X: cx, Y: cy}); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 2*time.Second, "the click on the moved checkbox", func() bool { return state(t, a4).Remember != was })

	// Two windows at different places: each element takes the origin of its own window.
	do(t, a4, map[string]any{"cmd": "press_save"})
	testkit.Eventually(t, 3*time.Second, "the dialog", func() bool { return state(t, a4).DialogOpen })
	var dialog x11.Window
	testkit.Eventually(t, 3*time.Second, "the dialog's X window", func() bool {
		wins, _ := x.WindowsOf(a4.PID)
		for _, w := range wins {
			if w.Title == "Saved" && w.Mapped && w.W > 1 {
				dialog = w
				return true
			}
		}
		return false
	})
	if dialog.X == dx && dialog.Y == dy {
		t.Logf("the dialog sits where the main window went: the test proves less")
	}
	var okButton observer.Walked
	testkit.Eventually(t, 3*time.Second, "the dialog in Windows", func() bool {
		wins, err := b.Windows(ctx, a4.PID)
		if err != nil {
			return false
		}
		for _, w := range wins {
			if w.Title == "Saved" {
				for _, n := range walk(t, b, w.Ref).Nodes {
					if n.Role == model.RoleButton && n.Name == "OK" {
						okButton = n
						return true
					}
				}
			}
		}
		return false
	})
	xr := model.Rect{X: float64(dialog.X), Y: float64(dialog.Y), W: float64(dialog.W), H: float64(dialog.H)}
	if okButton.Bounds == nil || !inside(*okButton.Bounds, xr) {
		t.Errorf("the dialog's OK button %+v is not inside the dialog's X window %+v", okButton.Bounds, xr)
	}
	if n := b.Read(ctx, []model.NodeRef{remember.Ref})[0]; n.Bounds == nil || *n.Bounds != after {
		t.Errorf("with the dialog open the checkbox reads at %+v, want %+v", n.Bounds, after)
	}
}
