//go:build linux

package headless

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testkit"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// needSession fails when this machine cannot run headless sessions: make test installs what they need.
func needSession(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Fatalf("%v (make deps installs it)", err)
	}
}

func startSession(t *testing.T, opts ...Option) *Session {
	t.Helper()
	needSession(t)
	t0 := time.Now()
	s, err := Start(testkit.Context(t, 10*time.Second), append([]Option{WithLogger(testkit.Logger(t, slog.LevelDebug))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("session up in %v: display %s", time.Since(t0).Round(time.Millisecond), s.Display)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// children lists the live (non-zombie) children of this test process.
func children() []proc {
	var out []proc
	for _, pid := range pids() {
		if _, state, ppid, _, ok := procStat(pid); ok && ppid == os.Getpid() && state != 'Z' {
			if p, ok := procOf(pid); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

func names(ps []proc) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.name)
	}
	slices.Sort(out)
	return out
}

func TestSessionLifecycle(t *testing.T) {
	needSession(t)
	before := children()
	t0 := time.Now()
	s, err := Start(testkit.Context(t, 10*time.Second), WithLogger(testkit.Logger(t, slog.LevelDebug)))
	if err != nil {
		t.Fatal(err)
	}
	up := time.Since(t0)
	procs := markedProcs(s.Dir)
	got := strings.Join(names(procs), ",")
	for _, want := range []string{"Xvfb", "dbus-daemon", "at-spi-bus-laun", "at-spi2-registr"} {
		if !strings.Contains(got, want) {
			t.Errorf("session processes %s: no %s", got, want)
		}
	}
	if n := strings.Count(got, "dbus-daemon"); n != 2 {
		t.Errorf("session processes %s: %d dbus-daemons, want 2 (session, accessibility)", got, n)
	}
	if len(s.services) != 3 {
		t.Errorf("services found over D-Bus: %v, want launcher, accessibility bus, registry", s.services)
	}
	if fi, err := os.Stat(s.Dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("dir %s: %v %v, want mode 0700", s.Dir, fi.Mode(), err)
	}
	if !strings.HasPrefix(s.Display, ":") || !strings.HasPrefix(s.SessionBus, "unix:path="+s.Dir) ||
		!strings.Contains(s.A11yBus, s.Dir) {
		t.Errorf("session %+v: display, buses not private", s)
	}
	env, err := os.ReadFile(filepath.Join(s.Dir, "session.env"))
	if err != nil || !strings.Contains(string(env), "export DISPLAY='"+s.Display+"'") || strings.Contains(string(env), "export AT_SPI_BUS_ADDRESS") {
		t.Errorf("session.env: %q %v", env, err)
	}
	// The bus launcher's AT_SPI_BUS on the root window (Qt's way to the bus) outlives the launcher's
	// own X connection: the server does not reset when its last client leaves.
	xprop := exec.Command("xprop", "-root", "AT_SPI_BUS")
	xprop.Env = s.Env()
	if out, err := xprop.CombinedOutput(); err != nil || !strings.Contains(string(out), `"`+s.A11yBus+`"`) {
		t.Errorf("root window AT_SPI_BUS: %s %v, want %q", out, err, s.A11yBus)
	}
	for _, kv := range s.Env() {
		if strings.HasPrefix(kv, "NO_AT_BRIDGE=") || strings.HasPrefix(kv, "GTK_A11Y=") ||
			strings.HasPrefix(kv, "WAYLAND_DISPLAY=") || strings.HasPrefix(kv, "AT_SPI_BUS_ADDRESS=") {
			t.Errorf("Env has %s", kv)
		}
	}

	// A program started with Env() is the session's too: Close ends it.
	stray := exec.Command("sleep", "60")
	stray.Env = s.Env()
	if err := stray.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stray.Wait() }()
	strayProc, _ := procOf(stray.Process.Pid)
	procs = append(procs, strayProc)

	t1 := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	down := time.Since(t1)
	t.Logf("up %v, down %v, processes %s", up.Round(time.Millisecond), down.Round(time.Millisecond), got)
	for _, p := range procs {
		if p.alive() {
			t.Errorf("%s (pid %d) survived Close", p.name, p.pid)
		}
	}
	if left := markedProcs(s.Dir); len(left) > 0 {
		t.Errorf("session processes left: %v", left)
	}
	if after := children(); len(after) > len(before) {
		t.Errorf("children before %v, after %v", names(before), names(after))
	}
	if _, err := os.Stat(s.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dir %s left behind (%v)", s.Dir, err)
	}
	n := strings.TrimPrefix(s.Display, ":")
	for _, f := range []string{"/tmp/.X" + n + "-lock", "/tmp/.X11-unix/X" + n} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s left behind", f)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.StartApp(testkit.Context(t, time.Second), KindGTK3); err == nil {
		t.Error("StartApp on a closed session succeeded")
	}
}

func TestWithDir(t *testing.T) {
	needSession(t)
	dir := filepath.Join(t.TempDir(), "fixed")
	s := startSession(t, WithDir(dir))
	if s.Dir != dir {
		t.Fatalf("Dir %s, want %s", s.Dir, dir)
	}
	if _, err := Start(testkit.Context(t, 5*time.Second), WithDir(dir)); err == nil || !strings.Contains(err.Error(), "already runs") {
		t.Fatalf("a second session in the same dir: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dir created by Start not removed: %v", err)
	}

	// A dir that exists is kept, emptied of what the session made.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "keep")
	if err := os.WriteFile(keep, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := startSession(t, WithDir(dir))
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "keep" {
		t.Errorf("dir after Close: %v, want only keep", entries)
	}
}

func TestParallelSessions(t *testing.T) {
	needSession(t)
	var sessions [2]*Session
	var apps [2]*App
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() {
			s, err := Start(testkit.Context(t, 10*time.Second), WithLogger(testkit.Logger(t, slog.LevelDebug)))
			if err != nil {
				errs[i] = err
				return
			}
			sessions[i] = s
			apps[i], errs[i] = s.StartApp(testkit.Context(t, 15*time.Second), KindGTK3)
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, s := range sessions {
			if s != nil {
				if err := s.Close(); err != nil {
					t.Error(err)
				}
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	a, b := sessions[0], sessions[1]
	if a.Display == b.Display || a.Dir == b.Dir || a.SessionBus == b.SessionBus || a.A11yBus == b.A11yBus {
		t.Fatalf("sessions collide:\n%+v\n%+v", a, b)
	}
	for i, s := range sessions {
		regs, err := s.RegisteredApps(testkit.Context(t, 2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := regs[apps[i].PID]; !ok || len(regs) != 1 {
			t.Errorf("session %d registry %v: want only its own app %d", i, regs, apps[i].PID)
		}
	}
}

// TestFixtureApps drives each fixture over its control socket and checks what the app reports.
func TestFixtureApps(t *testing.T) {
	s := startSession(t)
	for _, kind := range []string{KindGTK3, KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			t0 := time.Now()
			app, err := s.StartApp(testkit.Context(t, 15*time.Second), kind)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s up and registered in %v", kind, time.Since(t0).Round(time.Millisecond))
			testControl(t, s, app)
		})
	}
}

func testControl(t *testing.T, s *Session, app *App) {
	state := func() State {
		t.Helper()
		st, err := app.State(testkit.Context(t, 2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	do := func(req map[string]any) map[string]any {
		t.Helper()
		before := time.Now().UnixNano()
		r, err := app.Do(testkit.Context(t, 2*time.Second), req)
		if err != nil {
			t.Fatalf("%v: %v", req, err)
		}
		if tn, _ := r["t_ns"].(int64); tn < before || tn > time.Now().UnixNano() {
			t.Errorf("%v: t_ns %v outside the request's time", req, r["t_ns"])
		}
		return r
	}

	st := state()
	if st.Toolkit != app.Kind || st.PID != app.PID || st.Name != "" || st.PasswordLen != len(FixturePassword) ||
		st.Remember || st.Volume != 25 || st.SelectedRow != 0 || st.Focus != "Name" || st.DialogOpen ||
		len(st.Labels) != 0 || st.Saved || st.Status != "Ready" || st.SaveDelayMS != 300 {
		t.Errorf("initial state %+v", st)
	}
	if len(st.VisibleRows) != 2 || st.VisibleRows[0] != 1 || st.VisibleRows[1] < 10 || st.VisibleRows[1] > 15 {
		t.Errorf("visible rows %v, want 1 to 10..15", st.VisibleRows)
	}

	if r := do(map[string]any{"cmd": "state"}); r["visible_rows"].([]any)[0] != 1.0 || r["password_len"] != float64(len(FixturePassword)) {
		t.Errorf("state through Do: %v", r)
	}
	do(map[string]any{"cmd": "set_text", "text": "Ada Lovelace ✓"})
	if r := do(map[string]any{"cmd": "toggle"}); r["active"] != true {
		t.Errorf("toggle: %v", r)
	}
	if r := do(map[string]any{"cmd": "set_value", "value": 73}); r["value"] != 73.0 {
		t.Errorf("set_value: %v", r)
	}
	do(map[string]any{"cmd": "select_row", "row": 200})
	do(map[string]any{"cmd": "add_label", "text": "Hello"})
	do(map[string]any{"cmd": "set_status", "text": "Busy"})
	st = state()
	if st.Name != "Ada Lovelace ✓" || !st.Remember || st.Volume != 73 || st.SelectedRow != 200 ||
		!slices.Equal(st.Labels, []string{"Hello"}) || st.Status != "Busy" || st.PasswordLen != len(FixturePassword) {
		t.Errorf("state after commands %+v", st)
	}
	// The list scrolls on the next frame.
	if !testkit.Within(2*time.Second, func() bool {
		st = state()
		return st.VisibleRows != nil && st.VisibleRows[1] >= 200 && st.VisibleRows[0] <= 200
	}) {
		t.Errorf("row 200 selected but visible rows %v", st.VisibleRows)
	}
	for _, target := range []string{"Remember me", "Volume", "Save", "Rows", "Password", "Name"} {
		if r := do(map[string]any{"cmd": "focus", "target": target}); r["focus"] != target {
			t.Errorf("focus %s: %v", target, r)
		}
		if st := state(); st.Focus != target {
			t.Errorf("focus %s: state says %q", target, st.Focus)
		}
	}
	if r := do(map[string]any{"cmd": "toggle"}); r["active"] != false {
		t.Errorf("second toggle: %v", r)
	}

	// Save: the label and the dialog come after the delay.
	r := do(map[string]any{"cmd": "press_save"})
	pressed := r["t_ns"].(int64)
	if st := state(); st.Saved || st.DialogOpen {
		t.Errorf("saved at once: %+v", st)
	}
	if !testkit.Within(3*time.Second, func() bool { st = state(); return st.Saved && st.DialogOpen }) {
		t.Fatalf("no save 3 s after press_save: %+v", st)
	}
	if d := time.Duration(st.SavedAt - pressed); d < 290*time.Millisecond || d > 2*time.Second {
		t.Errorf("save took %v, want about 300 ms", d)
	}
	if !slices.Equal(st.Labels, []string{"Hello", "Saved"}) || st.Saves != 1 {
		t.Errorf("after save: %+v", st)
	}
	if r := do(map[string]any{"cmd": "close_dialog"}); r["closed"] != true {
		t.Errorf("close_dialog: %v", r)
	}
	if r := do(map[string]any{"cmd": "close_dialog"}); r["closed"] != false {
		t.Errorf("close_dialog without a dialog: %v", r)
	}
	if st := state(); st.DialogOpen {
		t.Errorf("dialog still open: %+v", st)
	}

	// Bad requests are refused, and the app lives on.
	for _, req := range []map[string]any{
		{"cmd": "nope"}, {}, {"cmd": 3}, {"cmd": "set_text"}, {"cmd": "set_text", "text": 5},
		{"cmd": "set_value", "value": "x"}, {"cmd": "set_value", "value": 101}, {"cmd": "select_row", "row": 0},
		{"cmd": "select_row", "row": 401}, {"cmd": "select_row", "row": 1.5}, {"cmd": "focus", "target": "Nope"},
		{"cmd": "hang", "seconds": -1}, {"cmd": "__init__"},
	} {
		_, err := app.Do(testkit.Context(t, 2*time.Second), req)
		var ce *ControlError
		if !errors.As(err, &ce) || ce.Message == "" {
			t.Errorf("%v: %v, want a refusal", req, err)
		}
	}
	for _, line := range []string{"not json", "[1,2]", `"x"`, `{"cmd":"set_text","text":"\ud800"}`, "{"} {
		reply := rawLine(t, app.Socket, line)
		if !strings.Contains(reply, `"ok": false`) {
			t.Errorf("%q: %s", line, reply)
		}
	}
	if st := state(); st.Name != "Ada Lovelace ✓" {
		t.Errorf("state after bad requests %+v", st)
	}

	// An app that stops answering: hang, and SIGSTOP.
	hung := make(chan error, 1)
	go func() {
		_, err := app.Do(context.Background(), map[string]any{"cmd": "hang", "seconds": 0.6})
		hung <- err
	}()
	// The hang lands when the app reads it; from then on (0.6 s) a state is not answered.
	var err error
	if !testkit.Within(time.Second, func() bool {
		_, err = app.State(testkit.Context(t, 200*time.Millisecond))
		return errors.Is(err, context.DeadlineExceeded)
	}) {
		t.Errorf("state of a hung app: %v, want a deadline", err)
	}
	if err := <-hung; err != nil {
		t.Errorf("hang: %v", err)
	}
	state()
	if err := app.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := app.State(testkit.Context(t, 200*time.Millisecond)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("state of a stopped app: %v, want a deadline", err)
	}
	if err := app.Cont(); err != nil {
		t.Fatal(err)
	}
	state()

	// Killed: it leaves the registry.
	if _, err := s.WaitRegistered(testkit.Context(t, time.Second), app.PID, true); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := app.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := app.Wait(); err == nil {
		t.Error("Wait after Kill: nil, want the signal")
	}
	if _, err := s.WaitRegistered(testkit.Context(t, 3*time.Second), app.PID, false); err != nil {
		t.Fatal(err)
	}
	t.Logf("killed app gone from the registry in %v", time.Since(t0).Round(time.Millisecond))
	if err := app.Kill(); err == nil {
		t.Error("Kill of an exited app: nil")
	}
}

func rawLine(t *testing.T, sock, line string) string {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	reply, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return reply
}

func TestQuitAndSaveDelay(t *testing.T) {
	s := startSession(t)
	app, err := s.StartApp(testkit.Context(t, 15*time.Second), KindGTK3, "AXBUS_FIXTURE_SAVE_DELAY_MS=0")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := app.State(testkit.Context(t, 2*time.Second)); err != nil || st.SaveDelayMS != 0 {
		t.Fatalf("state %+v %v", st, err)
	}
	if _, err := app.Do(testkit.Context(t, 2*time.Second), map[string]any{"cmd": "quit"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-app.Done():
		if err := app.Wait(); err != nil {
			t.Errorf("quit: exit %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("quit: still running")
	}
	if _, err := os.Stat(app.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left after quit: %v", err)
	}
}

func TestStartAppErrors(t *testing.T) {
	s := startSession(t)
	if _, err := s.StartApp(testkit.Context(t, time.Second), "motif"); err == nil {
		t.Error("unknown kind accepted")
	}
	saved := Python
	Python = "/bin/false"
	defer func() { Python = saved }()
	_, err := s.StartApp(testkit.Context(t, 5*time.Second), KindGTK3)
	if err == nil || !strings.Contains(err.Error(), "exited before READY") {
		t.Errorf("an app that exits at once: %v", err)
	}
}

func TestFixtureDir(t *testing.T) {
	d, err := FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	if !hasFixtures(d) || filepath.Base(d) != "apps" {
		t.Errorf("FixtureDir %s", d)
	}
}

// TestCloseFrozenApps: Close ends apps that do not answer (stopped, or blocked in their main loop) at once.
func TestCloseFrozenApps(t *testing.T) {
	needSession(t)
	s, err := Start(testkit.Context(t, 10*time.Second), WithLogger(testkit.Logger(t, slog.LevelDebug)))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	stopped, err := s.StartApp(testkit.Context(t, 15*time.Second), KindGTK3)
	if err != nil {
		t.Fatal(err)
	}
	hung, err := s.StartApp(testkit.Context(t, 15*time.Second), KindGTK4)
	if err != nil {
		t.Fatal(err)
	}
	if err := stopped.Stop(); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = hung.Do(context.Background(), map[string]any{"cmd": "hang", "seconds": 30}) }()
	testkit.Eventually(t, 5*time.Second, "the app hung", func() bool {
		_, err := hung.State(testkit.Context(t, 100*time.Millisecond))
		return errors.Is(err, context.DeadlineExceeded)
	})
	t0 := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("Close took %v", d)
	}
	for _, a := range []*App{stopped, hung} {
		select {
		case <-a.Done():
		default:
			t.Errorf("%s app %d still running", a.Kind, a.PID)
		}
	}
	if left := markedProcs(s.Dir); len(left) > 0 {
		t.Errorf("left: %v", left)
	}
}

func TestStartCancelled(t *testing.T) {
	needSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := Start(ctx)
	if err == nil {
		s.Close()
		t.Fatal("Start with a cancelled context succeeded")
	}
	t.Log(err)
	if left := children(); len(left) > 0 {
		t.Errorf("children left: %v", names(left))
	}
}

// TestEmbeddedFixtures: away from the source tree, StartApp runs the copies embedded in the binary.
func TestEmbeddedFixtures(t *testing.T) {
	needSession(t)
	t.Chdir(t.TempDir())
	if d, err := FixtureDir(); err == nil {
		t.Fatalf("fixtures found at %s from a temporary dir: the test would not use the embedded copies", d)
	}
	s := startSession(t)
	app, err := s.StartApp(testkit.Context(t, 15*time.Second), KindGTK3)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(s.Dir, "fixtures"); s.fixtures != want {
		t.Errorf("fixtures from %s, want %s", s.fixtures, want)
	}
	if st, err := app.State(testkit.Context(t, 2*time.Second)); err != nil || st.Toolkit != KindGTK3 {
		t.Errorf("state %+v %v", st, err)
	}
}
