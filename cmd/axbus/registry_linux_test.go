package main

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
)

// A restarted AT-SPI registry makes every running app register again: the same instances, so
// nothing is announced (no app_launched, no window_created), generations stay, and a snapshot
// taken before acts after.
func TestDesktopRegistryRestartKeepsTheApps(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)
	pid := dd.apps[kind].PID
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	generation := func() uint64 { // 0: not listed (or no registry answers yet)
		apps, _ := dd.client.Apps(ctx)
		for _, a := range apps {
			if a.PID == pid {
				return a.Generation
			}
		}
		return 0
	}
	before := generation()
	insp := dd.inspect(t, kind)
	check := find(insp, model.RoleCheckbox, "Remember me")
	if before == 0 || check == nil {
		t.Fatalf("generation %d, checkbox %+v", before, check)
	}

	conn, err := dbus.Connect(dd.session.A11yBus)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var registry uint32
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetConnectionUnixProcessID", 0, "org.a11y.atspi.Registry").Store(&registry); err != nil {
		t.Fatal(err)
	}
	dd.drain()
	if err := syscall.Kill(int(registry), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The next call activates a new registry; the app registers with it again.
	// Nothing announces the new registry's listing to a client: look until it lists the app.
	testkit.Eventually(t, 20*time.Second, "the app listed by a new registry", func() bool { return generation() != 0 })
	// The app's worker handles its registration before the events that follow it: once an event
	// made after the restart is seen, whatever the registration published is seen too.
	dd.do(t, kind, map[string]any{"cmd": "set_text", "text": "after the restart"})
	dd.await(t, "an event after the restart", pid, 10*time.Second, func(e api.Envelope) bool {
		switch e.Type {
		case model.EventAppLaunched, model.EventWindowCreated, model.EventDialogOpened:
			t.Errorf("the restart announced the running app again: %s %s", e.Type, e.Raw)
		}
		return e.Type == model.EventTextChanged
	})
	if after := generation(); after != before {
		t.Fatalf("the generation changed across the restart: %d -> %d", before, after)
	}
	was := dd.state(t, kind).Remember
	r, err := dd.client.Act(ctx, "toggle", api.ActionRequest{Target: insp.SnapshotID + ":" + check.ID})
	if err != nil || !r.Done {
		t.Fatalf("toggle through the snapshot from before the restart: %+v %v", r, err)
	}
	dd.eventually(t, kind, "the checkbox toggled", func(s headless.State) bool { return s.Remember != was })
}
