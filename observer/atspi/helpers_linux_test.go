//go:build linux

package atspi

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

// The tests run against real GTK apps in one private headless session (Xvfb, session bus,
// accessibility bus and registry) shared by the package's tests; each test starts its own fixture
// apps and ends them.
var shared struct {
	once sync.Once
	s    *headless.Session
	err  error
}

func closeShared() {
	if shared.s != nil {
		_ = shared.s.Close()
	}
}

// session returns the shared headless session; it fails where sessions cannot run (make test
// installs what they need).
func session(t testing.TB) *headless.Session {
	t.Helper()
	if err := headless.Available(); err != nil {
		t.Fatalf("%v (make deps installs it)", err)
	}
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		shared.s, shared.err = headless.Start(ctx)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.s
}

// startApp starts a fixture app that the test ends.
func startApp(t testing.TB, s *headless.Session, kind string, env ...string) *headless.App {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := s.StartApp(ctx, kind, env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = a.Cont()
		_ = a.Kill()
		_ = a.Wait()
	})
	return a
}

// open opens a backend on the session that the test closes.
func open(t testing.TB, s *headless.Session, opts ...Option) *Backend {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	log := testkit.Logger(t, slog.LevelInfo)
	all := append([]Option{WithSessionBus(s.SessionBus), WithDisplay(s.Display), WithXAuthority(s.XAuthority), WithLogger(log)}, opts...)
	b, err := Open(ctx, all...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// mainWindow returns the fixture's main window.
func mainWindow(t testing.TB, b *Backend, a *headless.App) model.Window {
	t.Helper()
	want := headless.WindowTitle(a.Kind)
	var last []model.Window
	var found model.Window
	if !testkit.Within(5*time.Second, func() bool {
		wins, err := b.Windows(testkit.Context(t, 5*time.Second), a.PID)
		if err != nil {
			t.Fatal(err)
		}
		last = wins
		for _, w := range wins {
			if w.Title == want {
				found = w
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no window %q among %+v", want, last)
	}
	return found
}

// walk reads the whole window with the wide budget.
func walk(t testing.TB, b observer.Reader, root model.NodeRef) observer.WalkResult {
	t.Helper()
	res := observer.Walk(testkit.Context(t, 30*time.Second), b, root, observer.WalkOptions{Budget: model.WideBudget()})
	if len(res.Nodes) == 0 {
		t.Fatalf("empty walk: %+v", res)
	}
	return res
}

// find returns the first walked element with the role and the name (or label).
func find(t testing.TB, res observer.WalkResult, role model.Role, name string) observer.Walked {
	t.Helper()
	for _, n := range res.Nodes {
		if n.Role == role && (n.Name == name || (n.Name == "" && n.Label == name)) {
			return n
		}
	}
	t.Fatalf("no %s %q in the walk of %d elements", role, name, len(res.Nodes))
	return observer.Walked{}
}

// do sends a control request to the app and returns its reply.
func do(t testing.TB, a *headless.App, req map[string]any) map[string]any {
	t.Helper()
	r, err := a.Do(testkit.Context(t, 10*time.Second), req)
	if err != nil {
		t.Fatalf("%v: %v", req, err)
	}
	return r
}

// state asks the app for its own state.
func state(t testing.TB, a *headless.App) headless.State {
	t.Helper()
	st, err := a.State(testkit.Context(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// watchedGTK3 is the GTK3 fixture on its own desktop, a backend watching its events, and its
// main window.
type watchedGTK3 struct {
	s   *headless.Session
	a   *headless.App
	b   *Backend
	rec *testkit.Recorder
	win model.Window
}

func startWatchedGTK3(t testing.TB) watchedGTK3 {
	t.Helper()
	w := watchedGTK3{s: session(t)}
	w.a = startApp(t, w.s, headless.KindGTK3)
	w.b = open(t, w.s)
	w.rec = testkit.Record(t, w.b.Watch)
	w.win = mainWindow(t, w.b, w.a)
	return w
}

// ofApp matches events of the app with the type and, when name is set, an element of that name.
func ofApp(pid int, typ model.EventType, name string) func(model.Event) bool {
	return func(e model.Event) bool {
		return e.App.PID == pid && e.Type == typ && (name == "" || (e.Element != nil && e.Element.Name == name))
	}
}

// latency is how long after the app applied a change (its reply's t_ns) the event reached the sink.
func latency(e testkit.Received, tns int64) time.Duration {
	return e.At.Sub(time.Unix(0, tns))
}

func tns(t testing.TB, reply map[string]any) int64 {
	t.Helper()
	v, ok := reply["t_ns"].(int64)
	if !ok {
		t.Fatalf("reply without t_ns: %v", reply)
	}
	return v
}

// leaks reports whether s holds the fixture's password.
func leaks(v any) bool {
	b, _ := json.Marshal(v)
	return strings.Contains(string(b), headless.FixturePassword) || strings.Contains(fmt.Sprintf("%+v", v), headless.FixturePassword)
}

// contextWithCancelAfter is a context cancelled (not timed out) after d.
func contextWithCancelAfter(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	timer := time.AfterFunc(d, cancel)
	return ctx, func() { timer.Stop(); cancel() }
}
