package sim

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

// Apps launched, watched and read, then killed, leave the desktop holding what it held before
// them, but for the exited apps kept for a relaunch, which stay bounded.
func TestPerAppResourcesReturnToBaseline(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	spec, ok := d.AppSpec("Mail")
	if !ok {
		t.Fatal("no Mail spec")
	}
	perApp := func() map[string]int {
		r := d.Resources()
		delete(r, "apps_exited")
		return r
	}
	base := perApp()
	if base["apps"] != 2 || base["elements"] == 0 || base["watchers"] != 1 {
		t.Fatalf("baseline %v: want the demo's 2 apps, their elements and one watcher", base)
	}
	ctx := context.Background()
	for i := range maxExitedApps + 6 {
		spec.PID = 0
		pid, err := d.Launch(spec)
		if err != nil {
			t.Fatal(err)
		}
		wins, err := d.Windows(ctx, pid)
		if err != nil || len(wins) == 0 {
			t.Fatalf("windows of launch %d: %v %v", i, wins, err)
		}
		if res := observer.Walk(ctx, d, wins[0].Ref, observer.WalkOptions{Budget: model.WideBudget()}); len(res.Nodes) == 0 {
			t.Fatalf("empty walk of launch %d", i)
		}
		if during := d.Resources(); during["apps"] != base["apps"]+1 || during["elements"] <= base["elements"] {
			t.Fatalf("launch %d running: %v, baseline %v", i, during, base)
		}
		m := rec.Mark()
		if err := d.Kill(pid); err != nil {
			t.Fatal(err)
		}
		rec.WaitFor(t, m, 2*time.Second, "app_terminated", func(e model.Event) bool {
			return e.Type == model.EventAppTerminated && e.App.PID == pid
		})
		var now map[string]int
		if !testkit.Within(2*time.Second, func() bool { now = perApp(); return maps.Equal(now, base) }) {
			t.Fatalf("launch %d killed: %v, baseline %v", i, now, base)
		}
	}
	if exited := d.Resources()["apps_exited"]; exited != maxExitedApps {
		t.Errorf("%d exited apps kept, want the newest %d", exited, maxExitedApps)
	}
}
