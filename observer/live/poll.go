package live

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// Poller publishes polled snapshots as diffs: for each polled app it keeps a copy of the tree
// of the app's focused window, read with the wide budget and no visible clip, and on every
// cycle hands the sink what was added, removed and changed since the previous cycle, naming
// elements by a stable key (see Diff). Nothing is handed over when nothing changed.
//
// Work in proportion to interest: with PollWhen, an app is polled only while someone consumes
// its diffs (the daemon: while a client subscribes to ax.<host>.snap.<app>, or to a wildcard
// that covers it). Asking costs a fraction of a microsecond and comes before any read. An app
// nobody listens to is dormant: no call to it, no copy of its window in memory, its events
// marking nothing. Its first cycle with a listener reads the window whole and publishes a
// reset, so a new consumer gets the whole window first; a listener joining an app already
// polled gets a reset from memory. While no app is polled, the list of apps is read again only
// when an app launches or exits, or every idleDiscovery (30 s); PollDormant is told when the
// last polled app goes dormant.
//
// Which window: the app's focused window; when focus leaves the app (on Linux only the active
// window is focused), the window polled so far stays polled while it is open. A different
// focused window is read whole and published as a reset. The app's exit, or its window closing
// with none focused, publishes a gone diff; exit also ends the app's poller.
//
// Memory: the copy holds each element's summary, its place and its child list (about 370 bytes
// per element, not its whole Node), and never more elements than the budget (4,000 for the
// wide one): elements that appear under notifications in a full copy are left out, as a full
// read would leave them.
//
// Cost: after the first full read, a cycle re-reads only what notifications named. The
// subscription's callback only marks elements (the element, its children for a selection
// change, its subtree for a move; destroyed ones are forgotten unread), and the cycle re-reads
// the marked elements, whose fresh child lists show the children added (read with their
// subtrees, one batch per level) and removed. A cycle therefore costs one Windows call plus reads in
// proportion to the change, not to the window.
//
// Notifications miss changes (AppKit posts none when an element is enabled or disabled, and
// toolkits skip more), which is why polled snapshots exist: every Resync-th cycle reads the
// window whole again and diffs everything. The trade-off is one full read (4,000 elements on a
// large window) per Resync × Interval, 10 s by default, against a change without notification
// staying unseen as long. Resync 0 trusts notifications alone. Elements that appear without
// naming their parent (macOS AXCreated names the new element) are placed by their bounds among
// the few known elements that contain them; one that cannot be placed waits for the resync.
type Poller struct {
	o    *observer.Observer
	sink func(model.Diff) bool
	cfg  pollConfig

	lifeMu  sync.Mutex // Start, Stop and PollNow
	started bool
	stopped bool
	token   observer.Token
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	appsMu sync.RWMutex
	apps   map[int]*appPoller // by pid: the app instance polled now
	// rediscover asks the run loop to look for apps now: an app launched or exited.
	rediscover chan struct{}
	// ticks counts the run loop's ticks: what proves to a test that cycles went by.
	ticks atomic.Int64
}

// The poller's defaults.
const (
	DefaultPollInterval = time.Second
	DefaultPollResync   = 10
)

type pollConfig struct {
	interval  time.Duration
	resync    int
	only      []model.AppQuery
	budget    model.Budget
	listeners func(model.App) int // PollWhen; nil polls every wanted app
	dormant   func()              // PollDormant
}

// PollOption configures a Poller.
type PollOption func(*pollConfig)

// PollInterval sets the time between cycles (default DefaultPollInterval); d <= 0 keeps it.
func PollInterval(d time.Duration) PollOption {
	return func(c *pollConfig) {
		if d > 0 {
			c.interval = d
		}
	}
}

// PollResync makes every n-th cycle read the window whole to find what notifications missed
// (default DefaultPollResync); 0 never does.
func PollResync(n int) PollOption { return func(c *pollConfig) { c.resync = max(n, 0) } }

// PollApps polls only the apps that match one of apps: by pid, or by name or bundle id
// (case-insensitive, exact). Without it every app is polled.
func PollApps(apps ...model.AppQuery) PollOption {
	return func(c *pollConfig) { c.only = append(c.only, apps...) }
}

// wants reports whether app is to be polled.
func (c *pollConfig) wants(app model.App) bool {
	if len(c.only) == 0 {
		return true
	}
	return slices.ContainsFunc(c.only, func(q model.AppQuery) bool {
		return (q.PID > 0 && q.PID == app.PID) ||
			(q.Name != "" && (strings.EqualFold(q.Name, app.Name) || strings.EqualFold(q.Name, app.ID)))
	})
}

// NewPoller returns a poller over o that hands its diffs to sink. sink is called from one
// goroutine per app, so it must be safe for concurrent use, and it must not block: a sink that
// cannot take a diff returns false, and that app's next cycle publishes a reset.
func NewPoller(o *observer.Observer, sink func(model.Diff) bool, opts ...PollOption) *Poller {
	p := &Poller{
		o: o, sink: sink, apps: map[int]*appPoller{}, rediscover: make(chan struct{}, 1),
		cfg: pollConfig{interval: DefaultPollInterval, resync: DefaultPollResync, budget: model.WideBudget()},
	}
	for _, opt := range opts {
		opt(&p.cfg)
	}
	return p
}

// Start subscribes to the observer's events and starts polling: the first cycle runs at once,
// the next ones every interval. A poller starts once.
func (p *Poller) Start() error {
	p.lifeMu.Lock()
	defer p.lifeMu.Unlock()
	if p.started {
		return model.Errorf(model.CodeBadRequest, "Make a new poller to poll again.", "the poller was started already")
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	tok, err := p.o.Subscribe(p.route)
	if err != nil {
		p.cancel()
		return model.AsError(err)
	}
	p.token, p.started = tok, true
	p.wg.Add(1)
	go p.run()
	return nil
}

// Stop ends polling and waits for every cycle in progress; no goroutine of the poller remains.
func (p *Poller) Stop() {
	p.lifeMu.Lock()
	if !p.started || p.stopped {
		p.stopped = true
		p.lifeMu.Unlock()
		return
	}
	p.stopped = true
	p.lifeMu.Unlock()
	p.o.Unsubscribe(p.token)
	p.cancel()
	p.wg.Wait()
}

// PollNow runs a cycle of every app the poller knows now, without waiting for the interval, and
// returns once their diffs are handed to the sink: for a caller that needs a fresh view at once.
// An app nobody listens to (PollWhen) reads nothing.
func (p *Poller) PollNow(ctx context.Context) {
	p.lifeMu.Lock()
	if !p.started || p.stopped {
		p.lifeMu.Unlock()
		return
	}
	p.wg.Add(1)
	p.lifeMu.Unlock()
	defer p.wg.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(p.ctx, cancel)() // Stop ends it too
	p.discover(ctx)
	for _, ap := range p.polled() {
		ap.cycle(ctx, true)
	}
}

// Resend makes the next cycle of app pid publish a reset, the whole window from memory: for a
// consumer that lost a diff (one that joins is owed a reset without asking; see PollWhen).
func (p *Poller) Resend(pid int) {
	p.appsMu.RLock()
	ap := p.apps[pid]
	p.appsMu.RUnlock()
	if ap != nil {
		ap.owesReset.Store(true)
		ap.nudge()
	}
}

// Ticks is how many ticks of its interval the poller has run since Start, whether or not they
// had an app to poll: a caller's proof that cycles went by while nothing was read.
func (p *Poller) Ticks() int64 { return p.ticks.Load() }

// Stats describes the polling of each app the poller knows, by pid, dormant ones included.
func (p *Poller) Stats() []model.AppPollStats {
	aps := p.polled()
	out := make([]model.AppPollStats, len(aps))
	for i, ap := range aps {
		out[i] = ap.snapshotStats()
	}
	return out
}

// run ticks the apps' pollers. A tick first looks for apps launched and exited, at every tick
// while an app is polled, else when an event says an app launched or exited or idleDiscovery
// has passed; then it wakes the apps someone listens to. The first tick that finds no app
// polled any more calls the PollDormant function.
func (p *Poller) run() {
	defer p.wg.Done()
	t := time.NewTicker(p.cfg.interval)
	defer t.Stop()
	idleTicks := max(int(idleDiscovery/p.cfg.interval), 1)
	discover, sinceDiscovery := true, 0 // the first tick, at once, learns the apps
	for wasBusy := false; ; {
		busy := p.busy()
		if wasBusy && !busy && p.cfg.dormant != nil {
			p.cfg.dormant()
		}
		wasBusy = busy
		if discover || sinceDiscovery >= idleTicks || busy {
			p.discover(p.ctx)
			sinceDiscovery = 0
		}
		for _, ap := range p.polled() {
			if ap.due() {
				ap.nudge()
			}
		}
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
			p.ticks.Add(1)
			discover = false
			sinceDiscovery++
		case <-p.rediscover:
			discover = true
		}
	}
}

// discover starts a poller for each wanted app not polled yet and ends those of apps that
// exited or were relaunched (a new generation gets a new poller, starting with a reset).
func (p *Poller) discover(ctx context.Context) {
	apps, err := p.o.Apps(ctx)
	if err != nil {
		return // the next tick asks again
	}
	listed := make(map[int]model.App, len(apps))
	for _, a := range apps {
		listed[a.PID] = a
	}
	p.appsMu.Lock()
	defer p.appsMu.Unlock()
	for pid, ap := range p.apps {
		a, ok := listed[pid]
		switch {
		case !ok || a.Generation != ap.app.Generation:
			ap.marks.terminate() // its next cycle publishes gone and ends its goroutine
			ap.nudge()
			delete(p.apps, pid)
		case ap.ctx.Err() != nil: // it ended on its own (the app seemed gone): poll it anew
			delete(p.apps, pid)
		}
	}
	for _, a := range apps {
		if p.apps[a.PID] == nil && p.cfg.wants(a) {
			ap := newAppPoller(p, a)
			p.apps[a.PID] = ap
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				ap.run()
			}()
		}
	}
}

// Polling reports whether app pid's diffs are polled now: someone listens to them.
func (p *Poller) Polling(pid int) bool {
	p.appsMu.RLock()
	ap := p.apps[pid]
	p.appsMu.RUnlock()
	return ap != nil && ap.awake.Load()
}

// polled lists the apps' pollers by pid.
func (p *Poller) polled() []*appPoller {
	p.appsMu.RLock()
	defer p.appsMu.RUnlock()
	out := make([]*appPoller, 0, len(p.apps))
	for _, ap := range p.apps {
		out = append(out, ap)
	}
	slices.SortFunc(out, func(a, b *appPoller) int { return a.app.PID - b.app.PID })
	return out
}

// route marks what an event says changed, on the goroutine that delivers it: it only records,
// never reads.
// A dormant app's events mark nothing: its next cycle, if any, reads the window whole.
func (p *Poller) route(e model.Event) {
	if e.Type == model.EventAppLaunched || e.Type == model.EventAppTerminated {
		p.appsMoved()
	}
	p.appsMu.RLock()
	ap := p.apps[e.App.PID]
	p.appsMu.RUnlock()
	if ap == nil || e.App.Generation != ap.app.Generation {
		return
	}
	if e.Type == model.EventAppTerminated {
		ap.marks.terminate()
		ap.nudge() // exit ends the poller now, not at the next tick
		return
	}
	if ap.awake.Load() {
		ap.marks.note(e)
	}
}
