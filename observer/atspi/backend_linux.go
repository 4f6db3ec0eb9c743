//go:build linux

package atspi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/internal/x11"
	"github.com/axbus/axbus/observer"
)

// The well-known names and paths of AT-SPI.

// Defaults of the options.
const (
	DefaultCallTimeout = 3 * time.Second
	DefaultRecheck     = 500 * time.Millisecond
	// DefaultFastRecheck is the re-read period while a wait is pending on the app: a GTK4 label
	// appended is answered within it (one Cache.GetItems of a 1,200-item window takes ~40 ms).
	DefaultFastRecheck = 100 * time.Millisecond
	// discoveryTimeout bounds org.a11y.Bus.GetAddress, which may D-Bus-activate the bus launcher.
	discoveryTimeout = 10 * time.Second
)

// Option configures Open.
type Option func(*config)

type config struct {
	sessionAddr string
	a11yAddr    string
	display     string
	displaySet  bool
	xauthority  string
	launchEnv   []string
	log         *slog.Logger
	callTimeout time.Duration
	recheck     time.Duration
	fastRecheck time.Duration
	sequential  bool
	loseEvery   int
	// reannounce is how long after a registry restart a registration is taken for an app that
	// was running already registering again (tests shorten it).
	reannounce time.Duration
}

// WithSessionBus sets the session bus address (default $DBUS_SESSION_BUS_ADDRESS). The session
// bus is used to find the accessibility bus and to switch accessibility on.
func WithSessionBus(addr string) Option { return func(c *config) { c.sessionAddr = addr } }

// WithA11yBus sets the accessibility bus address and skips its discovery. By default the address
// is the answer of org.a11y.Bus.GetAddress on the session bus given by WithSessionBus; without
// that option it is $AT_SPI_BUS_ADDRESS when set (as libatspi and atk-bridge do, so that axbus and
// the apps meet on the same bus), else GetAddress on $DBUS_SESSION_BUS_ADDRESS.
func WithA11yBus(addr string) Option { return func(c *config) { c.a11yAddr = addr } }

// WithDisplay sets the X display of physical input and of window positions (default $DISPLAY).
func WithDisplay(display string) Option {
	return func(c *config) { c.display, c.displaySet = display, true }
}

// WithXAuthority sets the Xauthority file whose MIT-MAGIC-COOKIE-1 the X connection presents to the display's
// server (a headless session's Session.XAuthority). By default the cookie comes from $XAUTHORITY, else
// ~/.Xauthority; this option lets one process use several X servers, each with its own file.
func WithXAuthority(path string) Option { return func(c *config) { c.xauthority = path } }

// WithLaunchEnv sets the environment of the apps Launch starts (a headless desktop's). By
// default it is the daemon's, pointed at the display and buses of the options above.
func WithLaunchEnv(env []string) Option { return func(c *config) { c.launchEnv = env } }

// WithLogger sets the logger (default: discard). Values of elements are never logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// WithCallTimeout bounds each D-Bus call, and each phase of a pipelined read (default 3 s). An app
// that does not answer within it is reported APP_NOT_RESPONDING.
func WithCallTimeout(d time.Duration) Option { return func(c *config) { c.callTimeout = d } }

// WithRecheck sets the periods of the cheap re-reads that detect changes of toolkits which emit
// no event for them (GTK4): slow while someone watches (default 500 ms), fast while a wait is
// pending (default 100 ms; never slower than slow).
func WithRecheck(slow, fast time.Duration) Option {
	return func(c *config) { c.recheck, c.fastRecheck = slow, fast }
}

// WithSequentialReads makes Read issue one call at a time and wait for each answer: the slow way,
// kept to measure what pipelining gains (benchmarks). Never use it in production.
func WithSequentialReads() Option { return func(c *config) { c.sequential = true } }

// WithEventLoss loses every n-th accessibility event as it arrives, as a busy bus, a restart or
// a toolkit that announces nothing would: for tests that what the backend keeps from events
// converges to what the app says whatever is missed. Never use it in production.
func WithEventLoss(every int) Option { return func(c *config) { c.loseEvery = every } }

// Backend is the AT-SPI2 backend. It is safe for concurrent use.
type Backend struct {
	cfg     config
	log     *slog.Logger
	conn    *dbus.Conn
	self    string // our unique name on the accessibility bus
	selfPID int
	sigs    *signalQueue
	cache   *refCache
	peers   peers
	// recheckWhen gates the re-reads of apps whose toolkit misses events (RecheckWhen).
	recheckWhen atomic.Pointer[func(model.App) observer.Recheck]
	// acted counts our actions, inputs and window changes. An app answers an action over its
	// peer connection before its events reach us through the bus daemon, so what events keep
	// true is asked again by the reads after an action, not taken from the cache (see acting).
	acted atomic.Uint64
	// matchRules counts the match rules the backend added on the bus (Resources).
	matchRules atomic.Int32

	mu       sync.Mutex
	apps     map[string]*appInfo // by bus name
	registry string              // the registry's unique name
	// reannounce are the connections the accessibility bus had when the registry restarted:
	// their registration with the new registry is the same app instance again, not a launch.
	reannounce map[string]bool
	// probed says, by connection, whether it serves an application root (unregistered_linux.go).
	probed    map[string]bool
	focus     map[string]focusMark
	watch     *watchState // nil while nobody watches
	x         *x11.Conn
	clipboard *x11.Clipboard
	closed    bool
	closeOnce sync.Once

	done chan struct{}
	wg   sync.WaitGroup // the signal dispatcher and helpers
}

// RecheckWhen makes the backend re-read an app whose toolkit misses events (GTK4) only while
// observed says someone observes it: its waits, its polled diffs, a client of its events.
func (b *Backend) RecheckWhen(rate func(model.App) observer.Recheck) { b.recheckWhen.Store(&rate) }

// Open connects to the accessibility bus and returns the backend. Without a session bus or an
// accessibility bus it returns an *model.Error with code UNAVAILABLE that says what is missing
// and how to get it.
func Open(ctx context.Context, opts ...Option) (*Backend, error) {
	cfg := config{callTimeout: DefaultCallTimeout, recheck: DefaultRecheck, reannounce: reannounceWindow}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.log == nil {
		cfg.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.callTimeout <= 0 {
		cfg.callTimeout = DefaultCallTimeout
	}
	if cfg.recheck <= 0 {
		cfg.recheck = DefaultRecheck
	}
	if cfg.fastRecheck <= 0 {
		cfg.fastRecheck = DefaultFastRecheck
	}
	cfg.fastRecheck = min(cfg.fastRecheck, cfg.recheck)
	if !cfg.displaySet {
		cfg.display = os.Getenv("DISPLAY")
	}
	addr, err := discover(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	sigs := newSignalQueue(cfg.loseEvery)
	conn, err := connectBus(ctx, addr, dbus.WithSignalHandler(sigs))
	if err != nil {
		return nil, model.Errorf(model.CodeUnavailable,
			"The accessibility bus was found but refused the connection; restart the desktop session (or axbus serve --headless always) and check that at-spi2-core is installed.",
			"cannot connect to the accessibility bus at %s: %v", addr, err).Wrap(err)
	}
	b := &Backend{
		cfg: cfg, log: cfg.log, conn: conn, self: conn.Names()[0], selfPID: os.Getpid(), sigs: sigs,
		cache: newRefCache(), peers: peers{conns: map[string]*peerConn{}, stalled: map[string]bool{}}, apps: map[string]*appInfo{}, focus: map[string]focusMark{}, done: make(chan struct{}),
	}
	if err := b.start(ctx); err != nil {
		_ = conn.Close()
		return nil, err
	}
	return b, nil
}

// discover finds the accessibility bus's address and switches accessibility on.
func discover(ctx context.Context, cfg *config) (string, error) {
	if cfg.a11yAddr != "" {
		return cfg.a11yAddr, nil
	}
	sessionAddr := cfg.sessionAddr
	envA11y := ""
	if sessionAddr == "" { // a session bus given explicitly is asked, whatever the environment says
		sessionAddr = os.Getenv("DBUS_SESSION_BUS_ADDRESS")
		envA11y = os.Getenv("AT_SPI_BUS_ADDRESS")
	}
	if sessionAddr == "" {
		if envA11y != "" {
			return envA11y, nil
		}
		return "", model.Errorf(model.CodeUnavailable,
			"Run axbus inside a desktop session (where DBUS_SESSION_BUS_ADDRESS is set), or start a headless one with axbus serve --headless always.",
			"no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set, so the accessibility bus cannot be found")
	}
	session, err := dbus.Connect(sessionAddr)
	if err != nil {
		if envA11y != "" {
			return envA11y, nil
		}
		return "", model.Errorf(model.CodeUnavailable,
			"Start a desktop session, or axbus serve --headless always; check DBUS_SESSION_BUS_ADDRESS.",
			"cannot connect to the D-Bus session bus at %s: %v", sessionAddr, err).Wrap(err)
	}
	defer session.Close()
	obj := session.Object(a11yBusName, a11yBusPath)
	// Switch accessibility on: Qt and Chromium wait for it; GTK ignores it. Best effort.
	setCtx, cancel := context.WithTimeout(ctx, discoveryTimeout)
	defer cancel()
	if c := obj.CallWithContext(setCtx, propsSet, 0, "org.a11y.Status", "IsEnabled", dbus.MakeVariant(true)); c.Err != nil {
		cfg.log.Debug("atspi: cannot set org.a11y.Status.IsEnabled", "err", c.Err)
	}
	if envA11y != "" {
		return envA11y, nil
	}
	var addr string
	if err := obj.CallWithContext(setCtx, a11yBusName+".GetAddress", 0).Store(&addr); err != nil || addr == "" {
		if err == nil {
			err = errors.New("empty address")
		}
		return "", model.Errorf(model.CodeUnavailable,
			"Install at-spi2-core (it provides at-spi-bus-launcher and at-spi2-registryd), or start a full desktop session or axbus serve --headless always.",
			"no accessibility bus: org.a11y.Bus.GetAddress on the session bus failed: %v", err).Wrap(err)
	}
	return addr, nil
}

// start subscribes to the bus signals, finds the registry, registers the focus event and lists
// the apps, then runs the signal dispatcher.
func (b *Backend) start(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, discoveryTimeout)
	defer cancel()
	for _, iface := range []string{"Object", "Window", "Focus"} {
		if err := b.conn.AddMatchSignalContext(ctx, dbus.WithMatchInterface(eventIfacePrefix+iface)); err != nil {
			return b.unavailable("cannot subscribe to AT-SPI events", err)
		}
		b.matchRules.Add(1)
	}
	if err := b.conn.AddMatchSignalContext(ctx, dbus.WithMatchSender(dbusName), dbus.WithMatchInterface(dbusName),
		dbus.WithMatchMember("NameOwnerChanged")); err != nil {
		return b.unavailable("cannot subscribe to NameOwnerChanged", err)
	}
	b.matchRules.Add(1)
	// Asking for the registry's owner activates at-spi2-registryd when it is not running.
	var owner string
	if err := b.conn.BusObject().CallWithContext(ctx, dbusName+".StartServiceByName", 0, registryName, uint32(0)).Err; err != nil {
		b.log.Debug("atspi: StartServiceByName registry", "err", err)
	}
	if err := b.conn.BusObject().CallWithContext(ctx, dbusName+".GetNameOwner", 0, registryName).Store(&owner); err != nil {
		return model.Errorf(model.CodeUnavailable,
			"Install at-spi2-core (at-spi2-registryd), or restart the desktop session (or axbus serve --headless always).",
			"the accessibility bus has no registry (%s): %v", registryName, err).Wrap(err)
	}
	b.mu.Lock()
	b.registry = owner
	b.mu.Unlock()
	b.registerEvents(ctx, []string{focusEvent})
	if _, err := b.Apps(ctx); err != nil {
		b.log.Debug("atspi: initial app list", "err", err)
	}
	b.wg.Add(1)
	go b.dispatch()
	return nil
}

func (b *Backend) unavailable(what string, err error) *model.Error {
	return model.Errorf(model.CodeUnavailable,
		"Restart the desktop session (or axbus serve --headless always); check that at-spi2-core is installed.",
		"%s on the accessibility bus: %v", what, err).Wrap(err)
}

// registerEvents asks the registry to have apps emit these events. at-spi2-core 2.46 accepts
// RegisterEvent(s event, as properties, s app_bus_name); older registries take the event alone.
func (b *Backend) registerEvents(ctx context.Context, events []string) {
	reg := b.conn.Object(registryName, registryPath)
	for _, ev := range events {
		c := reg.CallWithContext(ctx, registryRegisterEvent, 0, ev, []string{}, "")
		if c.Err != nil {
			c = reg.CallWithContext(ctx, registryRegisterEvent, 0, ev)
		}
		if c.Err != nil {
			b.log.Warn("atspi: RegisterEvent failed", "event", ev, "err", c.Err)
		}
	}
}

func (b *Backend) deregisterEvents(ctx context.Context, events []string) {
	reg := b.conn.Object(registryName, registryPath)
	for _, ev := range events {
		if c := reg.CallWithContext(ctx, registryDeregisterEvent, 0, ev); c.Err != nil {
			b.log.Debug("atspi: DeregisterEvent failed", "event", ev, "err", c.Err)
		}
	}
}

// Platform names the conventions of this backend.
func (b *Backend) Platform() string { return "atspi" }

// Close stops watching, deregisters the events, and closes the connections. It waits for every
// goroutine of the backend to end.
func (b *Backend) Close() error {
	b.closeOnce.Do(func() {
		b.mu.Lock()
		w := b.watch
		b.watch = nil
		b.closed = true
		b.mu.Unlock()
		if w != nil {
			w.stop()
		}
		ctx, cancel := context.WithTimeout(context.Background(), b.cfg.callTimeout)
		events := append([]string{focusEvent}, registeredEventsIfWatched(w)...)
		b.deregisterEvents(ctx, events)
		cancel()
		close(b.done)
		_ = b.conn.Close()
		b.closePeers()
		b.sigs.close()
		b.wg.Wait()
		b.mu.Lock()
		x, clip := b.x, b.clipboard
		b.x, b.clipboard = nil, nil
		b.mu.Unlock()
		if x != nil {
			x.Close()
		}
		if clip != nil {
			clip.Close()
		}
	})
	return nil
}

func registeredEventsIfWatched(w *watchState) []string {
	if w == nil {
		return nil
	}
	return registeredEvents
}

func (b *Backend) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// errClosed is the error of a call on a closed backend.
func errClosed() *model.Error {
	return model.Errorf(model.CodeUnavailable, "Open the backend again.", "the AT-SPI backend is closed")
}

// callError turns the error of a D-Bus call on (bus, path) into an *model.Error. A call that
// ran out of its own time is APP_NOT_RESPONDING; one whose caller's ctx ended is TIMEOUT.
func (b *Backend) callError(ctx context.Context, bus, path, method string, err error) *model.Error {
	if err == nil {
		return nil
	}
	app := b.appLabel(bus)
	var de dbus.Error
	if errors.As(err, &de) {
		msg := ""
		if len(de.Body) > 0 {
			msg, _ = de.Body[0].(string)
		}
		code := codeOfDBusError(de.Name, msg)
		var e *model.Error
		switch code {
		case model.CodeAppGone:
			e = model.Errorf(code, suggestionFor(code), "%s has left the accessibility bus", app)
		case model.CodeElementNotFound:
			e = model.Errorf(code, suggestionFor(code), "element %s of %s no longer exists", path, app)
		case model.CodeAppNotResponding:
			e = model.Errorf(code, suggestionFor(code), "%s did not answer %s", app, shortMethod(method))
		default:
			e = model.Errorf(code, suggestionFor(code), "%s on %s of %s failed: %s: %s", shortMethod(method), path, app, de.Name, msg)
		}
		return e.Wrap(err).With("dbus_error", de.Name).With("bus", bus)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		if ctx.Err() != nil {
			return model.Errorf(model.CodeTimeout, suggestionFor(model.CodeTimeout),
				"the read of %s ended before %s answered: %v", path, app, ctx.Err()).Wrap(err)
		}
		return model.Errorf(model.CodeAppNotResponding, suggestionFor(model.CodeAppNotResponding),
			"%s did not answer %s within %v", app, shortMethod(method), b.cfg.callTimeout).Wrap(err).With("bus", bus)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) { // a peer connection's write: the app stopped reading
		b.stallPeer(bus)
		return model.Errorf(model.CodeAppNotResponding, suggestionFor(model.CodeAppNotResponding),
			"%s stopped reading its requests (%s)", app, shortMethod(method)).Wrap(err).With("bus", bus)
	}
	if errors.Is(err, dbus.ErrClosed) || errors.Is(err, net.ErrClosed) || b.isClosed() {
		switch {
		case b.isClosed() || bus == "":
			return errClosed().Wrap(err)
		case b.peerStalled(bus): // we closed its peer connection: it did not answer
			if ctx.Err() != nil {
				return model.Errorf(model.CodeTimeout, suggestionFor(model.CodeTimeout),
					"the read of %s ended before %s answered: %v", path, app, ctx.Err()).Wrap(err)
			}
			return model.Errorf(model.CodeAppNotResponding, suggestionFor(model.CodeAppNotResponding),
				"%s did not answer %s", app, shortMethod(method)).Wrap(err).With("bus", bus)
		}
		// a peer connection ends when its app does
		return model.Errorf(model.CodeAppGone, suggestionFor(model.CodeAppGone), "%s has closed its connection", app).Wrap(err)
	}
	return model.Errorf(model.CodeInternal, suggestionFor(model.CodeInternal),
		"%s on %s of %s: %v", shortMethod(method), path, app, err).Wrap(err)
}

func shortMethod(m string) string {
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		m = m[strings.LastIndexByte(m[:i], '.')+1:]
	}
	return m
}

// appLabel names the app on bus in messages: "gedit (pid 123)" or the bus name.
func (b *Backend) appLabel(bus string) string {
	a := b.app(bus) // a copy: a relisting rewrites the app in place
	if a == nil || a.pid == 0 {
		return "the app at " + bus
	}
	name := a.name
	if name == "" {
		name = "app"
	}
	return fmt.Sprintf("%s (pid %d)", name, a.pid)
}

// errNotOurs is a handle that is no AT-SPI element of this daemon: from another backend, or
// made up.
func errNotOurs(ref model.NodeRef) *model.Error {
	return model.Errorf(model.CodeStaleRef, "Inspect again: the handle is not an AT-SPI element of this daemon.",
		"%q is not an AT-SPI element handle", ref)
}
