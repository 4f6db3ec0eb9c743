package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// TestDesktopEventsReachNATS makes every change a user would expect to see, through the
// fixture's own control channel, and checks that its event reaches a NATS subscriber. How soon
// is the benchmark's matter (make bench, atspi-events); the test logs it.
func TestDesktopEventsReachNATS(t *testing.T) {
	for _, kind := range []string{headless.KindGTK3, headless.KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			dd := startDesktopDaemon(t, kind)
			pid := dd.apps[kind].PID
			named := func(name string) func(api.Envelope) bool {
				return func(e api.Envelope) bool { return e.Element != nil && e.Element.Name == name }
			}
			// asked is when the last change was asked for: an event the daemon got before it (of the
			// app's start, say) is not of that change, however late it arrives.
			var asked time.Time
			do := func(req map[string]any) time.Time {
				asked = time.Now()
				return dd.do(t, kind, req)
			}
			check := func(what string, changed time.Time, typ model.EventType, pred func(api.Envelope) bool) {
				t.Helper()
				r := dd.await(t, what, pid, 5*time.Second, func(e api.Envelope) bool {
					return e.Type == typ && !e.Time.Before(asked) && (pred == nil || pred(e))
				})
				mustMatchEnvelope(t, r.env)
				t.Logf("%s: %s (%s) after %v", what, typ, r.env.Raw, r.at.Sub(changed))
			}
			dd.drain()

			at := do(map[string]any{"cmd": "set_text", "text": "typed text"})
			check("text typed", at, model.EventTextChanged, nil)

			at = do(map[string]any{"cmd": "toggle"})
			check("checkbox toggled", at, model.EventStateChanged, func(e api.Envelope) bool {
				return e.Detail["state"] == "checked" && e.Element != nil && e.Element.Name == "Remember me"
			})

			at = do(map[string]any{"cmd": "set_value", "value": 60})
			check("value changed", at, model.EventValueChanged, named("Volume"))

			at = do(map[string]any{"cmd": "focus", "target": "Volume"}) // the Name entry has it at start
			check("focus moved", at, model.EventFocusChanged, named("Volume"))

			at = do(map[string]any{"cmd": "add_label", "text": "Hello label"})
			check("label added", at, model.EventChildrenChanged, nil)

			do(map[string]any{"cmd": "press_save"})
			r := dd.await(t, "dialog opened", pid, 5*time.Second, func(e api.Envelope) bool { return e.Type == model.EventDialogOpened })
			st, err := dd.apps[kind].State(context.Background())
			if err != nil || !st.DialogOpen {
				t.Fatalf("state after save: %+v %v", st, err)
			}
			t.Logf("dialog opened: %s after %v", model.EventDialogOpened, r.at.Sub(time.Unix(0, st.SavedAt)))

			at = do(map[string]any{"cmd": "close_dialog"})
			check("dialog closed", at, model.EventWindowClosed, nil)

			if err := dd.apps[kind].Kill(); err != nil {
				t.Fatal(err)
			}
			killed := time.Now()
			r = dd.await(t, "app exited", pid, 5*time.Second, func(e api.Envelope) bool { return e.Type == model.EventAppTerminated })
			t.Logf("app exited: app_terminated after %v", r.at.Sub(killed))
		})
	}
}

func mustMatchEnvelope(t *testing.T, env api.Envelope) {
	t.Helper()
	raw, _ := json.Marshal(env)
	testdaemon.MustMatch(t, "event", raw)
}

// TestDesktopPasswordNeverLeaves checks the four places a password could leak: inspections,
// events, the daemon's log and the JetStream stream, on both toolkits.
func TestDesktopPasswordNeverLeaves(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3, headless.KindGTK4)
	secret := headless.FixturePassword
	var inspections []string
	asked := map[int]time.Time{} // by pid: when its changes were asked for
	for _, kind := range []string{headless.KindGTK3, headless.KindGTK4} {
		asked[dd.apps[kind].PID] = time.Now()
		dd.do(t, kind, map[string]any{"cmd": "focus", "target": "Password"}) // focus events on the field itself
		dd.do(t, kind, map[string]any{"cmd": "set_text", "text": "x"})
		raw, _ := json.Marshal(dd.inspect(t, kind))
		inspections = append(inspections, string(raw))
		if !strings.Contains(string(raw), `"password_field"`) {
			t.Fatalf("%s: the password field is not listed at all", kind)
		}
	}
	// Everything the changes publish has come once each app's last change (the text typed) sent
	// its event, and each app the poller reads (it sent a reset) re-read its window after that.
	testkit.Eventually(t, 15*time.Second, "the events and re-reads of the changes", func() bool {
		dd.eventsMu.Lock()
		defer dd.eventsMu.Unlock()
		typed, polled, reread := map[int]time.Time{}, map[int]bool{}, map[int]bool{}
		for _, raw := range dd.allEvents {
			var m struct {
				Kind    string                `json:"kind"` // of snapshot diffs only
				Type    model.EventType       `json:"type"` // of events only
				App     model.AppRef          `json:"app"`
				Time    time.Time             `json:"time"`
				Element *model.ElementSummary `json:"element"`
			}
			if json.Unmarshal(raw, &m) != nil {
				continue
			}
			pid := m.App.PID
			switch {
			case m.Kind != "":
				polled[pid] = true
				reread[pid] = reread[pid] || (!typed[pid].IsZero() && !m.Time.Before(typed[pid]))
			case m.Type == model.EventTextChanged && m.Element != nil && m.Element.Name == "Name" &&
				!m.Time.Before(asked[pid]) && typed[pid].IsZero():
				typed[pid] = m.Time
			}
		}
		for pid := range asked {
			if typed[pid].IsZero() || (polled[pid] && !reread[pid]) {
				return false
			}
		}
		return true
	})
	for i, s := range inspections {
		if strings.Contains(s, secret) {
			t.Fatalf("inspection %d holds the password", i)
		}
	}
	dd.eventsMu.Lock()
	events, snaps := 0, 0
	for _, e := range dd.allEvents {
		if strings.Contains(string(e), secret) {
			t.Fatalf("an event or snapshot diff holds the password: %s", e)
		}
		if strings.Contains(string(e), `"kind":"reset"`) && strings.Contains(string(e), `"password_field"`) {
			snaps++
		} else {
			events++
		}
	}
	dd.eventsMu.Unlock()
	if events == 0 || snaps == 0 {
		t.Fatalf("%d events and %d snapshot resets with the password field seen: the check would prove nothing", events, snaps)
	}
	if log := dd.log.String(); strings.Contains(log, secret) || log == "" {
		t.Fatalf("the daemon log holds the password (or is empty: %d bytes)", len(log))
	}
	stored := streamContents(t, dd)
	if len(stored) == 0 {
		t.Fatal("the stream is empty: the check would prove nothing")
	}
	for _, m := range stored {
		if strings.Contains(string(m), secret) {
			t.Fatalf("the JetStream stream holds the password: %s", m)
		}
	}
}

// TestDesktopSecureFieldEventsHideTheLength types into the password field a character at a time,
// as keystrokes do, three characters and then twelve: nothing published may tell the two apart or
// tell how many characters there are (no text, length, offsets or caret; one coalesced
// text_changed at most for each burst of typing), in the live events and in the stream.
func TestDesktopSecureFieldEventsHideTheLength(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3, headless.KindGTK4)
	ctx := context.Background()
	for _, kind := range []string{headless.KindGTK3, headless.KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			app := dd.apps[kind]
			dd.do(t, kind, map[string]any{"cmd": "focus", "target": "Password"})
			var counts []int
			for _, typed := range []string{"abc", "defghijklmno"} {
				before, err := app.State(ctx)
				if err != nil {
					t.Fatal(err)
				}
				dd.drain()
				dd.do(t, kind, map[string]any{"cmd": "type_password", "text": typed, "interval_ms": 15})
				dd.eventually(t, kind, "the characters typed", func(st headless.State) bool { return st.PasswordLen == before.PasswordLen+len(typed) })
				typedAt := time.Now()
				// What a burst publishes comes within the field's quiet time after its last key: count
				// what arrives until well past it.
				n, quiet := 0, time.After(time.Until(typedAt.Add(3*time.Second)))
			collect:
				for {
					select {
					case x := <-dd.events:
						if x.env.App.PID != app.PID {
							continue
						}
						if x.env.Type == model.EventTextChanged && x.env.Element != nil && x.env.Element.Role == model.RolePassword {
							n++
						} else if _, ok := x.env.Detail["start"]; ok || x.env.Type == model.EventTextChanged {
							t.Errorf("only the password field changed, yet an event about something else tells of text: %+v", x.env)
						}
					case <-quiet:
						break collect
					}
				}
				counts = append(counts, n)
				t.Logf("%d characters typed: %d text_changed about the field", len(typed), n)
			}
			// Both toolkits report every keystroke; one event each burst says only that the text changed.
			if counts[0] != 1 || counts[1] != 1 {
				t.Fatalf("text_changed events about the password field per burst: %v, want 1 each", counts)
			}
			dd.do(t, kind, map[string]any{"cmd": "focus", "target": "Name"})
		})
	}
	leaks := func(where string, raw []byte) {
		var env api.Envelope
		if json.Unmarshal(raw, &env) != nil || env.Element == nil || env.Element.Role != model.RolePassword {
			return
		}
		if len(env.Detail) > 0 || env.Element.Value != "" {
			t.Errorf("%s: an event about the password field carries %s", where, raw)
		}
	}
	dd.eventsMu.Lock()
	for _, e := range dd.allEvents {
		leaks("live", e)
	}
	dd.eventsMu.Unlock()
	for _, m := range streamContents(t, dd) {
		leaks("stream", m)
	}
}

// streamContents reads every message the host's stream keeps.
func streamContents(t *testing.T, dd *desktopDaemon) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	js, err := jetstream.New(dd.nc)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := js.OrderedConsumer(ctx, dd.Subjects.StreamName(), jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for {
		batch, err := cons.FetchNoWait(500)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for m := range batch.Messages() {
			out = append(out, m.Data())
			n++
		}
		if n == 0 {
			return out
		}
	}
}

// TestDesktopAppKilledDuringWalk kills an app while inspections of it run: each gets a reply
// or a clear error, an app_terminated event arrives, and the other app is still served.
func TestDesktopAppKilledDuringWalk(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3, headless.KindGTK4)
	victim := dd.apps[headless.KindGTK3]
	errs := make(chan error, 64)
	done := make(chan struct{})
	walking := make(chan struct{}) // closed once the first inspection replied: the next ones run
	go func() {
		defer close(done)
		for i := 0; i < 30; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			_, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: victim.PID}})
			cancel()
			errs <- err
			if i == 0 {
				close(walking)
			}
			if err != nil {
				return
			}
		}
	}()
	<-walking
	if err := victim.Kill(); err != nil {
		t.Fatal(err)
	}
	<-done
	close(errs)
	var last error
	for err := range errs {
		last = err
	}
	code := model.CodeOf(last)
	if code != model.CodeAppGone && code != model.CodeAppNotFound && code != model.CodeAppNotResponding {
		t.Fatalf("inspecting a killed app: %v, want APP_GONE, APP_NOT_FOUND or APP_NOT_RESPONDING", last)
	}
	var e *model.Error
	if errors.As(last, &e) && e.Suggestion == "" {
		t.Fatal("error without a suggestion")
	}
	dd.await(t, "app_terminated", victim.PID, 5*time.Second, func(e api.Envelope) bool { return e.Type == model.EventAppTerminated })
	if insp := dd.inspect(t, headless.KindGTK4); find(insp, model.RoleButton, "Save") == nil {
		t.Fatal("the other app is no longer served")
	}
}

// TestDesktopAppNotAnswering freezes an app: inspecting it fails clearly within the call
// timeout while the other app is served at once.
func TestDesktopAppNotAnswering(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3, headless.KindGTK4)
	frozen := dd.apps[headless.KindGTK3]
	if err := frozen.Stop(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = frozen.Cont() }()
	result := make(chan error, 1)
	start := time.Now()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: frozen.PID}})
		result <- err
	}()
	other := time.Now()
	dd.inspect(t, headless.KindGTK4)
	if took := time.Since(other); took > 2*time.Second {
		t.Fatalf("the other app took %v while one app hangs", took)
	}
	err := <-result
	if c := model.CodeOf(err); c != model.CodeAppNotResponding {
		t.Fatalf("inspecting a frozen app: %v, want APP_NOT_RESPONDING", err)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("the frozen app's inspection took %v", took)
	}
}

// TestDesktopReadsNeverCrashTheApp: many inspections read every text of the GTK3 window
// (the GetText(0, MaxInt32) trap would kill it); the app stays alive and answers.
func TestDesktopReadsNeverCrashTheApp(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3)
	app := dd.apps[headless.KindGTK3]
	dd.do(t, headless.KindGTK3, map[string]any{"cmd": "set_text", "text": "some text to read back"})
	for range 20 {
		dd.inspect(t, headless.KindGTK3)
	}
	select {
	case <-app.Done():
		t.Fatal("the app died while we read it")
	default:
	}
	if st, err := app.State(context.Background()); err != nil || st.Name != "some text to read back" {
		t.Fatalf("app state after reads: %+v %v", st, err)
	}
}
