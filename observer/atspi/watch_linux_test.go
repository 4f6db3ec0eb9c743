//go:build linux

package atspi

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

// testRecheck is the re-read period of the event tests: GTK4 changes that emit nothing must be
// seen within it plus a margin.
const testRecheck = 200 * time.Millisecond

// Every event kind is delivered for a change made through the fixture's control socket: GTK3
// within 50 ms of the change, GTK4 within the re-read period and a margin where it emits nothing.
func TestEvents(t *testing.T) {
	s := session(t)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			a := startApp(t, s, kind, "AXBUS_FIXTURE_SAVE_DELAY_MS=0")
			b := open(t, s, WithRecheck(testRecheck, testRecheck))
			win := mainWindow(t, b, a)
			rec := testkit.Record(t, b.Watch)
			var lat []string
			// How soon each event comes is the benchmark's matter (make bench, atspi-events): the
			// test logs it and checks the event's content.
			check := func(what string, e testkit.Received, t0 int64) {
				t.Helper()
				l := latency(e, t0)
				own := e.At.Sub(e.Time) // from the signal's arrival to the sink: this backend's share
				lat = append(lat, what+"="+l.Round(100*time.Microsecond).String()+"/"+own.Round(100*time.Microsecond).String()+"("+e.Raw+")")
				if e.App.PID != a.PID || e.App.Name != headless.AppName(kind) {
					t.Errorf("%s: app %+v", what, e.App)
				}
				if e.Ref == "" || e.Time.IsZero() {
					t.Errorf("%s: no ref or time: %+v", what, e.Event)
				}
			}

			// Text typed into Name.
			m := rec.Mark()
			r := do(t, a, map[string]any{"cmd": "set_text", "text": "typed text"})
			e := rec.WaitFor(t, m, 3*time.Second, "text_changed", ofApp(a.PID, model.EventTextChanged, "Name"))
			check("text", e, tns(t, r))
			if e.Element.Role != model.RoleTextField || e.Window == nil || e.Window.Title != win.Title {
				t.Errorf("text_changed element %+v window %+v", e.Element, e.Window)
			}

			// Checkbox toggled.
			m = rec.Mark()
			r = do(t, a, map[string]any{"cmd": "toggle"})
			e = rec.WaitFor(t, m, 3*time.Second, "state_changed checked", func(e model.Event) bool {
				return ofApp(a.PID, model.EventStateChanged, "Remember me")(e) && e.Detail["state"] == "checked" && e.Detail["on"] == true
			})
			check("checked", e, tns(t, r))
			if !e.Element.States.Has(model.StateChecked) || e.Element.Value != "1" {
				t.Errorf("toggled checkbox summary %+v", e.Element)
			}

			// Label added to Messages.
			m = rec.Mark()
			r = do(t, a, map[string]any{"cmd": "add_label", "text": "note one"})
			e = rec.WaitFor(t, m, 3*time.Second, "children_changed", ofApp(a.PID, model.EventChildrenChanged, "Messages"))
			check("label", e, tns(t, r))

			// Slider value changed (GTK4 4.8 emits nothing: the re-read finds it).
			m = rec.Mark()
			r = do(t, a, map[string]any{"cmd": "set_value", "value": 70})
			e = rec.WaitFor(t, m, 3*time.Second, "value_changed", ofApp(a.PID, model.EventValueChanged, "Volume"))
			check("value", e, tns(t, r))
			if e.Element.Value != "70" {
				t.Errorf("value_changed summary value %q", e.Element.Value)
			}

			// Focus moved.
			m = rec.Mark()
			r = do(t, a, map[string]any{"cmd": "focus", "target": "Save"})
			e = rec.WaitFor(t, m, 3*time.Second, "focus_changed", ofApp(a.PID, model.EventFocusChanged, "Save"))
			check("focus", e, tns(t, r))
			if !e.Element.States.Has(model.StateFocused) {
				// GTK3 sets FOCUSED only while its window has the X input focus; the event is what counts.
				t.Logf("the focused element's summary lacks the focused state: %v", e.Element.States)
			}

			// Dialog opened (Save, no delay) and closed.
			m = rec.Mark()
			do(t, a, map[string]any{"cmd": "press_save"})
			e = rec.WaitFor(t, m, 3*time.Second, "dialog_opened", ofApp(a.PID, model.EventDialogOpened, "Saved"))
			st := state(t, a)
			if !st.DialogOpen {
				t.Fatalf("the fixture has no dialog: %+v", st)
			}
			check("dialog", e, st.SavedAt)
			if e.Element.Role != model.RoleDialog || e.Window == nil || e.Window.Title != "Saved" {
				t.Errorf("dialog_opened element %+v window %+v", e.Element, e.Window)
			}
			wins, err := b.Windows(testkit.Context(t, 5*time.Second), a.PID)
			if err != nil {
				t.Fatal(err)
			}
			dialogs := 0
			for _, w := range wins {
				if w.Title == "Saved" {
					dialogs++
					if w.Role != model.RoleDialog || !w.Modal || w.Bounds == nil {
						t.Errorf("the dialog in Windows: %+v", w)
					}
				}
			}
			if dialogs != 1 || len(wins) != 2 {
				t.Errorf("Windows with the dialog open: %+v", wins)
			}
			m = rec.Mark()
			r = do(t, a, map[string]any{"cmd": "close_dialog"})
			if r["closed"] != true {
				t.Fatalf("close_dialog: %v", r)
			}
			e = rec.WaitFor(t, m, 3*time.Second, "window_closed", func(e model.Event) bool {
				return e.App.PID == a.PID && e.Type == model.EventWindowClosed && e.Window != nil && e.Window.Title == "Saved"
			})
			check("dialog closed", e, tns(t, r))

			// Row selected.
			m = rec.Mark()
			r = do(t, a, map[string]any{"cmd": "select_row", "row": 5})
			e = rec.WaitFor(t, m, 3*time.Second, "selection_changed or state_changed selected", func(e model.Event) bool {
				return e.App.PID == a.PID && (e.Type == model.EventSelectionChanged ||
					(e.Type == model.EventStateChanged && e.Detail["state"] == "selected" && e.Detail["on"] == true))
			})
			check("select", e, tns(t, r))

			// App exited (killed).
			m = rec.Mark()
			if err := a.Kill(); err != nil {
				t.Fatal(err)
			}
			killed := time.Now()
			e = rec.WaitFor(t, m, 5*time.Second, "app_terminated", ofApp(a.PID, model.EventAppTerminated, ""))
			if d := e.At.Sub(killed); d > time.Second {
				t.Errorf("app_terminated %v after the kill", d)
			}
			if e.App.Name != headless.AppName(kind) {
				t.Errorf("app_terminated app %+v", e.App)
			}
			t.Logf("%s latencies (change to sink / signal to sink): %s", kind, strings.Join(lat, " "))
			for _, ev := range rec.All() {
				if ev.Type == model.EventAppTerminated && ev.App.PID == a.PID && ev.At.Before(e.At) {
					t.Error("app_terminated twice")
				}
			}
		})
	}
}

// GTK4 misses value changes; the backend's re-reads find them, but only while the gate says
// someone observes the app: a change made while nobody does is found once someone does.
func TestRecheckOnlyWhileObserved(t *testing.T) {
	s := session(t)
	a := startApp(t, s, headless.KindGTK4)
	b := open(t, s, WithRecheck(testRecheck, testRecheck))
	mainWindow(t, b, a)
	var observed atomic.Bool
	var asked atomic.Int32
	b.RecheckWhen(func(app model.App) observer.Recheck {
		if app.PID == a.PID {
			asked.Add(1)
		}
		if observed.Load() {
			return observer.RecheckSlow
		}
		return observer.RecheckNone
	})
	rec := testkit.Record(t, b.Watch)
	m := rec.Mark()
	do(t, a, map[string]any{"cmd": "set_value", "value": 40})
	testkit.Eventually(t, 10*testRecheck, "the gate asked twice", func() bool { return asked.Load() >= 2 })
	for _, e := range rec.All()[m:] {
		if ofApp(a.PID, model.EventValueChanged, "Volume")(e.Event) {
			t.Fatalf("a re-read ran while nobody observed the app: %+v", e.Event)
		}
	}
	observed.Store(true)
	e := rec.WaitFor(t, m, 3*time.Second, "value_changed once observed", ofApp(a.PID, model.EventValueChanged, "Volume"))
	if e.Element.Value != "40" {
		t.Fatalf("value_changed summary value %q", e.Element.Value)
	}
}
