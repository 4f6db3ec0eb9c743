package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/nats-io/nats.go"
)

// desktopDaemon is a real daemon on the AT-SPI backend, watching a private headless desktop
// that runs both GTK fixture apps. Everything a test checks goes through NATS.
type desktopDaemon struct {
	*testDaemon
	session   *headless.Session
	apps      map[string]*headless.App // by kind
	browser   *headless.Browser        // startWebDaemon's
	log       *testkit.Buffer          // the daemon's whole log, at debug level
	client    *client.Client
	nc        *nats.Conn
	events    chan received
	eventsMu  sync.Mutex
	allEvents [][]byte
	snaps     *nats.Subscription // to every app's polled diffs, which keeps the poller polling
}

// received is an event as a subscriber saw it, with the time it arrived.
type received struct {
	env api.Envelope
	at  time.Time
}

func startDesktopDaemon(t *testing.T, kinds ...string) *desktopDaemon {
	t.Helper()
	return startDesktopDaemonWith(t, nil, kinds...)
}

// startDesktopDaemonWith is startDesktopDaemon with the daemon's configuration changed by with.
func startDesktopDaemonWith(t *testing.T, with func(*daemon.Config), kinds ...string) *desktopDaemon {
	t.Helper()
	var opts []func(*daemon.Config)
	if with != nil {
		opts = append(opts, with)
	}
	return startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		var pids []int
		for _, kind := range kinds {
			app, err := dd.session.StartApp(ctx, kind)
			if err != nil {
				t.Fatal(err)
			}
			dd.apps[kind] = app
			pids = append(pids, app.PID)
		}
		return pids
	}, opts...)
}

// startDaemonWith starts a headless desktop, lets setup start its apps (returning their pids),
// and starts a daemon on it, its configuration changed by each of with.
func startDaemonWith(t *testing.T, setup func(ctx context.Context, dd *desktopDaemon) []int, with ...func(*daemon.Config)) *desktopDaemon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sess := testdaemon.StartHeadless(t, ctx)
	dd := &desktopDaemon{session: sess, apps: map[string]*headless.App{}, log: &testkit.Buffer{}, events: make(chan received, 4096)}
	pids := setup(ctx, dd)
	cfg := testdaemon.SessionConfig(sess)
	cfg.Log = slog.New(slog.NewTextHandler(dd.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	for _, w := range with {
		w(&cfg)
	}
	dd.testDaemon = &testDaemon{testdaemon.Start(t, cfg)}
	d, dir := dd.Daemon, dd.Dir
	nc, _, err := embedded.Connect(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	dd.nc = nc
	if dd.client, err = client.New(ctx, nc); err != nil {
		t.Fatal(err)
	}
	_, err = nc.Subscribe(d.Subjects.AllEvents(), func(m *nats.Msg) {
		at := time.Now()
		dd.eventsMu.Lock()
		dd.allEvents = append(dd.allEvents, m.Data)
		dd.eventsMu.Unlock()
		var env api.Envelope
		if json.Unmarshal(m.Data, &env) == nil {
			select {
			case dd.events <- received{env, at}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	resets := make(chan int, 16)
	dd.snaps, err = nc.Subscribe(d.Subjects.AllSnaps(), func(m *nats.Msg) { // kept for the password check
		dd.eventsMu.Lock()
		dd.allEvents = append(dd.allEvents, m.Data)
		dd.eventsMu.Unlock()
		var env api.SnapEnvelope
		if json.Unmarshal(m.Data, &env) == nil && env.Kind == "reset" {
			select {
			case resets <- env.App.PID:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	// Steady state: the poller has read the app with the focused window whole once (it resets
	// right after start; without a window manager only the last app shown has focus), so that
	// tests time events against a daemon at work, not one reading an app for the first time.
	for _, pid := range pids {
		d.Poller.Resend(pid) // the first reset may have gone before the subscription
	}
	if len(pids) > 0 {
		select {
		case <-resets:
		case <-time.After(20 * time.Second):
			t.Fatal("no polled snapshot within 20 s")
		}
	}
	return dd
}

// do sends a control request to a fixture app and returns the CLOCK_REALTIME time the app
// applied the change.
func (dd *desktopDaemon) do(t *testing.T, kind string, req map[string]any) time.Time {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reply, err := dd.apps[kind].Do(ctx, req)
	if err != nil {
		t.Fatalf("%s %v: %v", kind, req, err)
	}
	ns, _ := reply["t_ns"].(int64)
	return time.Unix(0, ns)
}

// drain forgets the events seen so far.
func (dd *desktopDaemon) drain() {
	for {
		select {
		case <-dd.events:
		default:
			return
		}
	}
}

// await waits for an event of app pid matching pred and returns it with the time it arrived.
func (dd *desktopDaemon) await(t *testing.T, what string, pid int, within time.Duration, pred func(api.Envelope) bool) received {
	t.Helper()
	deadline := time.After(within)
	var seen []string
	for {
		select {
		case r := <-dd.events:
			if r.env.App.PID == pid && pred(r.env) {
				return r
			}
			seen = append(seen, string(r.env.Type)+" "+r.env.Raw)
		case <-deadline:
			t.Fatalf("%s: no matching event within %v; saw %v", what, within, seen)
		}
	}
}

func (dd *desktopDaemon) inspect(t *testing.T, kind string) *model.Inspection {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	insp, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: dd.apps[kind].PID}})
	if err != nil {
		t.Fatalf("inspect %s: %v", kind, err)
	}
	raw, _ := json.Marshal(insp)
	testdaemon.MustMatch(t, "inspect.reply", raw)
	return insp
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func find(insp *model.Inspection, role model.Role, name string) *model.Element {
	for i := range insp.Elements {
		e := &insp.Elements[i]
		if e.Role == role && (e.Name == name || e.Label == name) {
			return e
		}
	}
	return nil
}

func TestDesktopAppsAndInspect(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3, headless.KindGTK4)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	apps, err := dd.client.Apps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for kind, app := range dd.apps {
		found := false
		for _, a := range apps {
			found = found || (a.PID == app.PID && a.Name == headless.AppName(kind) && a.Generation > 0)
		}
		if !found {
			t.Fatalf("apps lacks %s (pid %d): %+v", headless.AppName(kind), app.PID, apps)
		}
	}
	for _, kind := range []string{headless.KindGTK3, headless.KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			dd.do(t, kind, map[string]any{"cmd": "toggle"}) // so that a state shows
			insp := dd.inspect(t, kind)
			if insp.Window.Title != headless.WindowTitle(kind) || insp.Elements[0].Role != model.RoleWindow {
				t.Fatalf("window %+v, first element %+v", insp.Window, insp.Elements[0])
			}
			save := find(insp, model.RoleButton, "Save")
			if save == nil || save.Bounds == nil || save.Bounds.Empty() ||
				save.Bounds.X < 0 || save.Bounds.Y < 0 || save.Bounds.X+save.Bounds.W > 1280 || save.Bounds.Y+save.Bounds.H > 1024 {
				t.Fatalf("Save button missing or off the screen: %+v", save)
			}
			check := find(insp, model.RoleCheckbox, "Remember me")
			if check == nil || !check.States.Has(model.StateChecked) {
				t.Fatalf("checkbox missing or not checked after toggle: %+v", check)
			}
			name := find(insp, model.RoleTextField, "Name")
			if name == nil || !name.States.Has(model.StateEditable) {
				t.Fatalf("Name entry: %+v", name)
			}
			pw := find(insp, model.RolePassword, "Password")
			if pw == nil || !pw.Secure || pw.Value != nil || pw.Text != "" {
				t.Fatalf("password entry: %+v", pw)
			}
			vol := find(insp, model.RoleSlider, "Volume")
			if vol == nil || vol.Value == nil || !strings.HasPrefix(*vol.Value, "25") {
				t.Fatalf("Volume slider: %+v", vol)
			}
		})
	}
}
