//go:build linux

package atspi

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
)

// perApp are the resources an app costs the backend while it runs: each returns to its value
// from before the app once the app is gone (the soak's "per-app resources back to baseline").
// x_connections is the backend's own, opened on first use whatever the app.
var perApp = []string{"apps", "focus_marks", "reannounce", "match_rules", "peers_tried", "peers_stalled",
	"peer_connections", "cached_elements", "queued_signals", "text_pending", "watch_sinks", "workers",
	"apps_gone", "apps_left", "queued_jobs"}

// A GTK3 app started, watched and read, then killed (SIGKILL) or quit, leaves the backend holding
// what it held before it: its peer connection, worker, cached elements and bookkeeping all go.
func TestPerAppResourcesReturnToBaseline(t *testing.T) {
	s := session(t)
	b := open(t, s)
	rec := testkit.Record(t, b.Watch)
	if got := b.Resources(); len(got) < len(perApp) {
		t.Fatalf("resources %v lack some of %v", got, perApp)
	}
	// Apps of tests before this one may still be leaving the bus: the baseline is what the
	// backend holds once two looks 100 ms apart agree.
	var base map[string]int
	testkit.Eventually(t, 10*time.Second, "a settled baseline", func() bool {
		a := pick(b.Resources())
		time.Sleep(100 * time.Millisecond)
		base = pick(b.Resources())
		return maps.Equal(a, base)
	})
	t.Logf("baseline %v", base)
	for _, end := range []string{"killed", "quit"} {
		a := startApp(t, s, headless.KindGTK3)
		rec.WaitFor(t, 0, 10*time.Second, "app_launched", ofApp(a.PID, model.EventAppLaunched, ""))
		if _, err := b.Apps(testkit.Context(t, 5*time.Second)); err != nil { // the list dials the app's peer connection
			t.Fatal(err)
		}
		win := mainWindow(t, b, a)
		res := walk(t, b, win.Ref)
		m := rec.Mark()
		do(t, a, map[string]any{"cmd": "set_text", "text": "resources " + end})
		rec.WaitFor(t, m, 5*time.Second, "the label's event", ofApp(a.PID, model.EventTextChanged, ""))
		during := pick(b.Resources())
		for _, k := range []string{"apps", "workers", "peer_connections"} {
			if during[k] != base[k]+1 {
				t.Errorf("%s while the app runs: %s %d, want %d", end, k, during[k], base[k]+1)
			}
		}
		if during["cached_elements"] < base["cached_elements"]+len(res.Nodes)/2 {
			t.Errorf("%s: %d cached elements after reading %d, baseline %d", end, during["cached_elements"], len(res.Nodes), base["cached_elements"])
		}
		m = rec.Mark()
		if end == "killed" {
			if err := a.Kill(); err != nil {
				t.Fatal(err)
			}
		} else {
			do(t, a, map[string]any{"cmd": "quit"})
		}
		_ = a.Wait()
		rec.WaitFor(t, m, 5*time.Second, "app_terminated", ofApp(a.PID, model.EventAppTerminated, ""))
		var now map[string]int
		if !testkit.Within(5*time.Second, func() bool { now = pick(b.Resources()); return maps.Equal(now, base) }) {
			t.Errorf("%s: resources not back to baseline: %s", end, differences(base, now))
		}
	}
}

// pick is the per-app resources of r.
func pick(r map[string]int) map[string]int {
	out := make(map[string]int, len(perApp))
	for _, k := range perApp {
		out[k] = r[k]
	}
	return out
}

// differences names what differs between want and got.
func differences(want, got map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if want[k] != got[k] {
			out = append(out, fmt.Sprintf("%s %d (was %d)", k, got[k], want[k]))
		}
	}
	return fmt.Sprint(out)
}

// BenchmarkResources is the cost of the report status makes at each call, with a GTK3 app
// watched and read whole.
func BenchmarkResources(bm *testing.B) {
	w := startWatchedGTK3(bm)
	walk(bm, w.b, w.win.Ref)
	bm.ReportAllocs()
	for bm.Loop() {
		w.b.Resources()
	}
}

// An app that leaves between its listing and the dial of its peer connection leaves no mark of
// that dial behind: appGone, which drops the mark, has already run.
func TestPeerDialOfAGoneAppLeavesNothing(t *testing.T) {
	s := session(t)
	b := open(t, s)
	rec := testkit.Record(t, b.Watch)
	a := startApp(t, s, headless.KindGTK3)
	rec.WaitFor(t, 0, 10*time.Second, "app_launched", ofApp(a.PID, model.EventAppLaunched, ""))
	app, err := b.busOf(testkit.Context(t, 5*time.Second), a.PID)
	if err != nil {
		t.Fatal(err)
	}
	before := b.Resources()["peers_tried"]
	m := rec.Mark()
	if err := a.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = a.Wait()
	rec.WaitFor(t, m, 5*time.Second, "app_terminated", ofApp(a.PID, model.EventAppTerminated, ""))
	after := b.Resources()["peers_tried"]
	b.dialPeer(testkit.Context(t, 5*time.Second), app.bus) // as Apps does for what it just listed
	if got := b.Resources()["peers_tried"]; got != after || after > before {
		t.Errorf("peers tried: %d with the app, %d once gone, %d after a late dial", before, after, got)
	}
}
