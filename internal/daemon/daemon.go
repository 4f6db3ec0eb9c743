// Package daemon assembles one axbus daemon from the other packages: the embedded NATS server,
// a backend under an observer, the event publisher and the micro service. Wiring only: `axbus
// serve`, the end-to-end tests and the benchmarks start daemons through it.
package daemon

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/commands"
	"github.com/axbus/axbus/console"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/flows"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/waiters"
)

// Config is what `axbus serve` is told.
type Config struct {
	Backend  string // auto, sim, atspi, ax
	Desktop  string // the simulated desktop: a fixture name or a JSON file
	StateDir string
	Listen   string
	Host     string
	Prefix   string
	Log      *slog.Logger

	// TLSCert and TLSKey (PEM files) make the client listener require TLS. Without them a
	// Listen address other machines can reach is refused unless InsecureRemote accepts
	// plaintext from the network.
	TLSCert, TLSKey string
	InsecureRemote  bool

	// Headless is "never", "auto" (when this session has no desktop) or "always": run a private
	// headless desktop with the GTK fixture app and serve it (Linux).
	Headless string
	// SessionBus, A11yBus and Display point the AT-SPI backend at a desktop other than the
	// environment's (tests run their own headless sessions).
	SessionBus, A11yBus, Display string
	// XAuthority is the Xauthority file whose cookie Display's X server asks for ("": $XAUTHORITY,
	// else ~/.Xauthority); a headless session's X server refuses clients without it.
	XAuthority string
	// LaunchEnv is the environment of the apps a launch starts (a headless desktop's; nil: the
	// daemon's own, pointed at the desktop above).
	LaunchEnv []string
	// LoseEvents loses every n-th accessibility event on arrival (AT-SPI; 0: none): tests show
	// that what the daemon keeps converges to the apps whatever events are missed.
	LoseEvents int

	// HubURL joins a hub as a leaf node (tls://HOST:7422, or nats:// on loopback), with the
	// hub's leaf credential HubSeed (an nkey seed file) and, for TLS, the hub's CA HubCA. The
	// hub's requests have HubRole on this host (default agent).
	HubURL, HubSeed, HubCA, HubRole string

	// Polled snapshots: every SnapInterval (0: 1 s; negative: off) the focused window of each app
	// (or of SnapApps) that someone subscribes to is diffed with its last state, and a full
	// re-read runs every SnapResync cycles (0: never). An app nobody subscribes to is not read.
	SnapInterval time.Duration
	SnapResync   int
	SnapApps     []model.AppQuery

	// Console is the web console's listen address on loopback ("": none): the page, and the
	// server's WebSocket listener for it.
	Console string

	// EventStream bounds the event history (zero: embedded.EventStreamLimits); tests fill a
	// small one. The audit trail has a stream of its own (embedded.AuditStreamLimits).
	EventStream embedded.StreamLimits
}

// Daemon is one running axbus.
type Daemon struct {
	closed   atomic.Bool
	Server   *embedded.Server
	Backend  observer.Backend
	Observer *observer.Observer
	Pub      *bus.Publisher
	Audit    *bus.Audit   // the action records
	Poller   *live.Poller // nil when polling is off
	Waits    *waiters.Engine
	Commands *commands.Engine
	Recorder *flows.Recorder
	Leases   *commands.Leases // in the KV bucket AXBUS_LEASES_<HOST>
	// Ledger is the web-accessibility ledger; nil when the backend has no such switch.
	Ledger   *observer.Ledger
	Snap     *bus.SnapPublisher
	Service  *bus.Service
	Subjects api.Subjects
	// Desktop is the private headless desktop when the daemon started one, with its fixture app.
	Desktop *Headless
	// Console serves the web console's page; nil without one.
	Console *console.Server
	log     *slog.Logger
	token   observer.Token
	stop    chan struct{}
	swept   chan struct{}
}

// Start starts everything in order; on failure it undoes what it started. The server
// comes first: its state dir lock is what refuses a second daemon before it touches anything.
func Start(cfg Config) (_ *Daemon, err error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Listen == "" {
		cfg.Listen = embedded.DefaultListen
	}
	d := &Daemon{Subjects: api.NewSubjects(cfg.Prefix, cfg.Host), log: cfg.Log, stop: make(chan struct{}), swept: make(chan struct{})}
	opts := []embedded.Option{}
	if cfg.HubURL != "" {
		role := cmp.Or(cfg.HubRole, api.RoleAgent)
		if !slices.Contains(api.Roles, role) {
			return nil, model.Errorf(model.CodeBadRequest, "Give --hub-role monitor, agent or admin.", "unknown hub role %q", role)
		}
		opts = append(opts, embedded.WithLeaf(embedded.Leaf{URL: cfg.HubURL, SeedFile: cfg.HubSeed, CAFile: cfg.HubCA,
			Role: role}))
	}
	web, err := d.startConsole(cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && d.Console != nil && d.Server == nil { // Close closes it once the server is up
			_ = d.Console.Close()
		}
	}()
	opts = append(opts, web...)
	d.Server, err = embedded.Start(append(opts,
		embedded.WithStateDir(cfg.StateDir),
		embedded.WithJetStreamDomain(d.Subjects.Host),
		embedded.WithListen(cfg.Listen),
		embedded.WithTLS(cfg.TLSCert, cfg.TLSKey),
		embedded.WithInsecureRemote(cfg.InsecureRemote),
		embedded.WithLogger(cfg.Log.With("part", "nats")),
		embedded.WithStream(d.Subjects.StreamName(), cmp.Or(cfg.EventStream, embedded.EventStreamLimits), d.Subjects.AllEvents()),
		embedded.WithStream(d.Subjects.AuditStreamName(), embedded.AuditStreamLimits, d.Subjects.AllActions()),
		embedded.WithAccess(grants(d.Subjects), api.RoleAdmin), // the desktop's owner
		embedded.WithKeyValue(leaseBucket(d.Subjects)),
	)...)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = d.Close(context.Background())
		}
	}()
	if d.Desktop, err = StartHeadless(&cfg, d.Server.StateDir()); err != nil {
		return d, err
	}
	if d.Backend, err = OpenBackend(cfg); err != nil {
		return d, err
	}
	d.Observer = observer.New(d.Backend)
	d.Pub = bus.NewPublisher(d.Server.Conn(), d.Subjects, 0, cfg.Log.With("part", "publisher"))
	d.Audit = bus.NewAudit(d.Server.Conn(), d.Subjects, d.Pub.Boot(), d.Observer.Store(), cfg.Log.With("part", "audit"))
	if d.token, err = d.Observer.Subscribe(func(e model.Event) { d.Pub.Offer(e) }); err != nil {
		return d, err
	}
	if cfg.SnapInterval >= 0 {
		d.Snap = bus.NewSnapPublisher(d.Server.Conn(), d.Subjects, d.Pub.Boot(), 0, cfg.Log.With("part", "snap"))
		opts := []live.PollOption{live.PollResync(cfg.SnapResync), live.PollApps(cfg.SnapApps...),
			// Work in proportion to interest: an app's diffs are polled only while a client of the
			// server subscribes to them.
			live.PollWhen(bus.SnapListeners(d.Subjects, d.Server.Interest)), live.PollDormant(releaseMemory)}
		if cfg.SnapInterval > 0 {
			opts = append(opts, live.PollInterval(cfg.SnapInterval))
		}
		d.Poller = live.NewPoller(d.Observer, d.Snap.Offer, opts...)
		if err = d.Poller.Start(); err != nil {
			return d, err
		}
	}
	d.Waits = waiters.New(d.Observer)
	if err = d.Waits.Start(); err != nil {
		return d, err
	}
	lctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	d.Leases, err = startLeases(lctx, d)
	cancel()
	if err != nil {
		return d, err
	}
	if wa, ok := d.Backend.(observer.WebAccessibility); ok {
		d.Ledger = observer.NewLedger(wa)
	}
	d.Commands = commands.New(d.Observer, d.Waits, commands.WithLeases(d.Leases), commands.WithLedger(d.Ledger))
	d.gateRechecks() // it asks the waits and the commands
	d.Recorder = flows.NewRecorder(d.Observer, d.Commands)
	d.Service, err = bus.NewService(d.Server.Conn(), bus.Config{Subjects: d.Subjects, Backend: d.Backend.Platform(),
		Logger: cfg.Log.With("part", "service"), Identities: identities(d.Server), Connected: connected(d.Server),
		Private: d.Server.SetPrivate, Audit: d.Audit})
	if err == nil {
		err = d.Service.Serve(d.routes())
	}
	if err != nil {
		return d, err
	}
	go d.sweep()
	// The service's subscriptions go to the server asynchronously: a client asking right after
	// Start returns would find no responder.
	if err = d.Server.Conn().Flush(); err != nil {
		return d, err
	}
	return d, nil
}

// sweep frees expired snapshots now and then (lookups expire them lazily anyway) and ends the
// web-accessibility claims left unused.
func (d *Daemon) sweep() {
	defer close(d.swept)
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			d.Observer.Store().Sweep()
			if d.Ledger != nil {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				if err := d.Ledger.Sweep(ctx); err != nil {
					d.log.Warn("web accessibility not restored", "err", err)
				}
				cancel()
			}
		case <-d.stop:
			return
		}
	}
}

// Close shuts down in the order that loses nothing: the service stops taking requests, the
// observer stops watching, the publisher sends what it queued, then the server drains and stops.
// Closing again does nothing.
func (d *Daemon) Close(ctx context.Context) error {
	if d.closed.Swap(true) {
		return nil
	}
	var errs []error
	if d.Service != nil {
		errs = append(errs, d.Service.Stop())
		close(d.stop)
		<-d.swept
	}
	if d.Leases != nil {
		d.Leases.Close()
	}
	if d.Recorder != nil {
		d.Recorder.Close()
	}
	if d.Waits != nil {
		d.Waits.Stop()
	}
	if d.Poller != nil {
		d.Poller.Stop() // before the snap publisher closes: it offers to it
	}
	if d.Observer != nil && d.token != 0 {
		d.Observer.Unsubscribe(d.token)
	}
	if d.Pub != nil {
		d.Pub.Close()
	}
	if d.Snap != nil {
		d.Snap.Close()
	}
	if d.Backend != nil {
		errs = append(errs, d.Backend.Close())
	}
	if d.Desktop != nil {
		errs = append(errs, d.Desktop.Close())
	}
	if d.Console != nil {
		errs = append(errs, d.Console.Close())
	}
	if d.Server != nil {
		errs = append(errs, d.Server.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
