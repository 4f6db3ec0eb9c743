package e2e

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/soak"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// soakEnv names the soak's length: `make soak` sets 30m, `make test` 3m. Unset, TestSoak does
// not run: a soak is minutes long, and the other suites run in every `go test ./e2e`.
const soakEnv = "AXBUS_SOAK"

// TestSoak is issue 35's soak: a daemon (its own process, `axbus serve`) on a headless desktop
// with real apps (the GTK3 and GTK4 fixtures, Chromium on a page that changes by itself) and
// apps opened and closed all along, under agents acting with leases, locators and expects,
// hundreds of pending waits, monitors tailing live and history, a subscriber that stops
// reading, an MCP client, and faults on a schedule. Sampled every 10 s; after the warm-up
// every resource must stay flat, per-app resources go back to their baseline once the churned
// apps are gone, every request is answered within its deadline, and live subscribers see no
// gap. The table and the plot go to .bench/soak.md and .bench/soak.png.
func TestSoak(t *testing.T) {
	raw := os.Getenv(soakEnv)
	if raw == "" {
		t.Skipf("%s is not set: `make soak` (30m) and `make test` (3m) run the soak", soakEnv)
	}
	length, err := time.ParseDuration(raw)
	if err != nil || length < time.Minute {
		t.Fatalf("%s=%q: want a duration of a minute or more (3m, 30m)", soakEnv, raw)
	}
	s := startSoak(t, length)
	s.run()
	s.judge()
}

// soakRun is one soak: its desktop, its daemon process, its clients, what they saw.
type soakRun struct {
	t      *testing.T
	length time.Duration
	warmup time.Duration
	start  time.Time
	ctx    context.Context // ends with the run's load
	stop   context.CancelFunc

	sess       *headless.Session
	gtk3, gtk4 *headless.App
	browser    *headless.Browser
	daemon     *soakDaemon
	owner      *soakIdentity
	agents     []*soakIdentity
	monitors   []*soakIdentity

	recMu    sync.Mutex
	rec      *soak.Recorder // made at the first sample, when the backend's resources are known
	baseline map[string]int // the backend's resources before the first churned app
	watchdog *soak.Watchdog
	churned  atomic.Int64     // apps opened and closed
	killed   atomic.Bool      // the daemon was killed: samples of its new process are not judged
	restart  [2]time.Duration // from the daemon's kill until it answered again: UNAVAILABLE is its answer then
	ledger   *ledger          // every request and its answer
	gaps     *gapCheck        // what live subscribers saw
	faults   []string         // the fault schedule as carried out
	faultsMu sync.Mutex
	wg       sync.WaitGroup
}

// scale is how many of each load the run carries: the figures for 30 minutes, the same
// rates over a shorter run.
const (
	soakAgents       = 10
	soakMonitors     = 3
	soakPendingWaits = 200
	soakChurnEvery   = 5 * time.Second // 360 launches and quits in 30 minutes; the issue asks for 300 (soakChurnAtLeast)
	soakChurnAtLeast = 6 * time.Second
	soakSampleEvery  = 10 * time.Second
)

func startSoak(t *testing.T, length time.Duration) *soakRun {
	s := &soakRun{t: t, length: length, warmup: max(length/5, time.Minute),
		watchdog: soak.NewWatchdog(30 * time.Second), ledger: newLedger(), gaps: newGapCheck()}
	ctx := testkit.Context(t, length+5*time.Minute)
	s.sess = testdaemon.StartHeadless(t, ctx)
	var err error
	if s.gtk3, err = s.sess.StartApp(ctx, headless.KindGTK3); err != nil {
		t.Fatal(err)
	}
	if s.gtk4, err = s.sess.StartApp(ctx, headless.KindGTK4); err != nil {
		t.Fatal(err)
	}
	if s.browser, err = s.sess.StartBrowser(ctx, "matrix.html"); err != nil { // ticks every 500 ms
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.browser.Kill() })
	s.daemon = startSoakDaemon(t, s.sess)
	s.owner = s.daemon.owner(t)
	for i := range soakAgents {
		s.agents = append(s.agents, s.daemon.identity(t, s.owner, soakName("agent", i), "agent"))
	}
	for i := range soakMonitors + 1 { // the last replays history
		s.monitors = append(s.monitors, s.daemon.identity(t, s.owner, soakName("monitor", i), "monitor"))
	}
	s.waitApps(t, []int{s.gtk3.PID, s.gtk4.PID})
	s.ctx, s.stop = context.WithCancel(ctx)
	t.Cleanup(func() { s.stop(); s.wg.Wait() }) // a run that failed midway stops its loops too
	s.start = time.Now()
	s.ledger.start = s.start
	return s
}

// run carries the load and the faults for the run's length, sampling all along.
func (s *soakRun) run() {
	s.loop("sampler", s.sample)
	s.loop("churn", s.churn)
	for i, a := range s.agents {
		s.loop(a.name, func() { s.act(i, a) })
	}
	s.loop("waits", s.waits)
	for i, m := range s.monitors[:soakMonitors] {
		s.loop(m.name, func() { s.monitor(i, m) })
	}
	s.loop(s.monitors[soakMonitors].name, func() { s.replay(s.monitors[soakMonitors]) })
	s.loop("slow subscriber", s.slowSubscriber)
	s.loop("audit", s.records)
	s.loop("mcp", s.mcp)
	s.loop("watchdog", s.watch)
	s.faultSchedule()
	s.stop()
	s.wg.Wait()
}

// loop runs one of the run's loops on its own goroutine, known to the watchdog by name.
func (s *soakRun) loop(name string, body func()) {
	s.watchdog.Beat(name)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer s.watchdog.Done(name) // a loop that ended is not a stalled one
		body()
	}()
}

// elapsed is how far into the run now is.
func (s *soakRun) elapsed() time.Duration { return time.Since(s.start) }

// pause waits d, or less when the run ends: false then.
func (s *soakRun) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// fault notes a fault of the schedule as it is carried out.
func (s *soakRun) fault(what string) {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()
	s.faults = append(s.faults, s.elapsed().Round(time.Second).String()+" "+what)
	s.t.Logf("soak %v: %s", s.elapsed().Round(time.Second), what)
}

// watch fails the run when one of its loops has not beaten for 30 s.
func (s *soakRun) watch() {
	for s.pause(5 * time.Second) {
		s.watchdog.Beat("watchdog")
		if err := s.watchdog.Check(time.Now()); err != nil {
			s.t.Errorf("soak %v: %v\nthe driver's goroutines:\n%s", s.elapsed().Round(time.Second), err, soak.Stacks())
			return
		}
	}
}

func soakName(kind string, i int) string { return kind + string(rune('a'+i)) }
