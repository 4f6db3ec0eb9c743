package sim

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// Desktop is a simulated desktop. It implements observer.Backend with Platform "sim", following
// the conventions of the ax backend it imitates.
type Desktop struct {
	clock Clock
	done  chan struct{} // closed by Close: ends blocked calls

	mu       sync.Mutex
	closed   bool
	latency  time.Duration
	apps     []*app // in launch order; an exited app stays until its pid is relaunched (the newest maxExitedApps)
	launches int
	sinks    *observer.Sinks // of every Watch; their source is the feed
	feed     *feed           // nil while nobody watches
	inputs   []observer.Input
	hung     int // calls waiting for a hung app: tests act once one does
	timers   map[uint64]func() bool
	timerSeq uint64
	firing   sync.WaitGroup // scheduled callbacks not yet finished or stopped
}

// Option configures a Desktop.
type Option func(*Desktop)

// WithClock replaces the wall clock, e.g. with a FakeClock. Latency waits on this clock too.
func WithClock(c Clock) Option { return func(d *Desktop) { d.clock = c } }

// WithLatency overrides the fixture's per-call latency.
func WithLatency(l time.Duration) Option { return func(d *Desktop) { d.latency = l } }

// Load reads, validates and starts the fixture at path.
func Load(path string, opts ...Option) (*Desktop, error) {
	spec, err := ReadSpec(path)
	if err != nil {
		return nil, err
	}
	return New(spec, opts...)
}

// New validates spec and starts a desktop from it: its apps run, their looping scripts start
// and their timed faults are armed.
func New(spec *DesktopSpec, opts ...Option) (*Desktop, error) {
	if err := spec.validate("desktop"); err != nil {
		return nil, err
	}
	d := &Desktop{
		clock: realClock{}, done: make(chan struct{}), latency: ms(spec.LatencyMS),
		timers: map[uint64]func() bool{},
	}
	d.sinks = observer.NewSinks(d.startFeed)
	for _, o := range opts {
		o(d)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, s := range spec.Apps {
		d.start(s)
	}
	return d, nil
}

// Platform is "sim": the simulated desktop follows the ax backend's conventions (AX roles and
// actions) but says what it is.
func (d *Desktop) Platform() string { return "sim" }

// Close stops scripts, reactions, timed faults and event delivery, and ends blocked calls.
func (d *Desktop) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	close(d.done)
	for id, stop := range d.timers {
		delete(d.timers, id)
		if stop() {
			d.firing.Done()
		}
	}
	d.mu.Unlock()
	d.sinks.Close() // outside d.mu: the feed's stop takes it
	d.firing.Wait()
	return nil
}

// after runs f under d.mu once delay has passed on the desktop's clock, unless the desktop is
// closed first. Callers hold d.mu.
func (d *Desktop) after(delay time.Duration, f func()) {
	if d.closed {
		return
	}
	d.timerSeq++
	id := d.timerSeq
	d.firing.Add(1)
	d.timers[id] = d.clock.AfterFunc(delay, func() {
		defer d.firing.Done()
		d.mu.Lock()
		defer d.mu.Unlock()
		if _, live := d.timers[id]; live && !d.closed {
			delete(d.timers, id)
			f()
		}
	})
}

// sleep waits for delay on the desktop's clock, or until ctx ends or the desktop closes.
func (d *Desktop) sleep(ctx context.Context, delay time.Duration) error {
	if delay <= 0 {
		return ctxErr(ctx)
	}
	elapsed := make(chan struct{})
	stop := d.clock.AfterFunc(delay, func() { close(elapsed) })
	select {
	case <-elapsed:
		return nil
	case <-ctx.Done():
		stop()
		return errContext(ctx.Err())
	case <-d.done:
		stop()
		return errClosed()
	}
}

// appByPID is the app with pid, exited or not; callers hold d.mu.
func (d *Desktop) appByPID(pid int) *app {
	for _, a := range d.apps {
		if a.pid == pid {
			return a
		}
	}
	return nil
}

// live is the running app with pid, or the error a call to it gets; callers hold d.mu.
func (d *Desktop) live(pid int) (*app, error) {
	a := d.appByPID(pid)
	switch {
	case d.closed:
		return nil, errClosed()
	case a == nil:
		return nil, errAppNotFound(pid)
	case a.dead:
		return nil, errAppGone(a)
	}
	return a, nil
}

// resolve finds the node a handle names; callers hold d.mu.
func (d *Desktop) resolve(ref model.NodeRef) (*app, *node, error) {
	pid, launch, id, err := parseRef(ref)
	if err != nil {
		return nil, nil, err
	}
	a, err := d.live(pid)
	if err != nil {
		return nil, nil, err
	}
	if a.launch != launch { // the handle belongs to an earlier instance at this pid
		return nil, nil, model.Errorf(model.CodeAppGone, "The app was relaunched; inspect it anew.",
			"the instance of %s that %q belonged to has exited", a.spec.Name, ref).With("pid", pid)
	}
	n, ok := a.byID[id]
	if !ok {
		return nil, nil, errElementNotFound(a, id)
	}
	return a, n, nil
}
