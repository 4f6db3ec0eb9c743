package main

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
)

type serveCmd struct {
	Backend        string        `enum:"auto,atspi,ax,sim" default:"auto" help:"accessibility backend: auto (this platform's: atspi on Linux, ax on macOS), or sim (a simulated desktop, no display needed)."`
	Desktop        string        `default:"demo" help:"the simulated desktop of --backend sim: a fixture name (demo, large) or a JSON file."`
	Headless       string        `enum:"never,auto,always" default:"never" help:"run a private headless desktop with the GTK fixture app (Linux): never, auto (when there is no desktop session) or always."`
	StateDir       string        `placeholder:"DIR" type:"path" help:"state dir: JetStream store, credentials, lock (default: the user's state dir)."`
	Listen         string        `default:"${listen}" placeholder:"HOST:PORT" help:"client listen address; one other machines can reach needs --tls-cert and --tls-key, or --insecure-remote."`
	TLSCert        string        `name:"tls-cert" placeholder:"FILE" type:"existingfile" help:"require TLS on the client port with this PEM certificate (with --tls-key)."`
	TLSKey         string        `name:"tls-key" placeholder:"FILE" type:"existingfile" help:"the PEM private key of --tls-cert."`
	InsecureRemote bool          `help:"accept a --listen address other machines can reach without TLS: they could read and alter all traffic."`
	Console        string        `default:"127.0.0.1:0" placeholder:"HOST:PORT" help:"the web console's address, on loopback (port 0: a free one; '' for none): serve prints its URL, axbus console a fresh one."`
	Host           string        `default:"${host}" placeholder:"ID" help:"host id used in subjects."`
	Prefix         string        `default:"ax" help:"subject prefix."`
	SnapInterval   time.Duration `default:"1s" help:"polled snapshot diffs on <prefix>.<host>.snap.<app> (an app is polled only while someone subscribes): how often; 0 turns them off."`
	SnapResync     int           `default:"10" help:"a full re-read every this many snapshot cycles, for changes no notification announced (0: never)."`
	SnapApps       []string      `placeholder:"APP" help:"poll only these apps: names or pids, comma-separated (default: every app someone subscribes to)."`
	HistoryMB      int64         `name:"history-mb" default:"${history_mb}" help:"the event history kept, in MiB: the oldest events go first (they also go after 24 h)."`
	LogLevel       string        `enum:"debug,info,warn,error" default:"info" help:"the daemon's log level (the log goes to stderr)."`
	Hub            string        `placeholder:"URL" group:"Fleet" help:"join a hub as a leaf node: tls://HOST:7422 (nats:// on loopback only); its clients reach this host under <prefix>.<host>.>."`
	HubNkey        string        `placeholder:"FILE" type:"existingfile" group:"Fleet" help:"the hub's leaf credential (hub-leaf.nk in the hub's state dir)."`
	HubCA          string        `name:"hub-ca" placeholder:"FILE" type:"existingfile" group:"Fleet" help:"the CA of the hub's certificate (tls://)."`
	HubRole        string        `enum:"monitor,agent,admin" default:"agent" group:"Fleet" help:"what the hub's requests may do on this host; the hub limits each of its users further."`
}

// Run serves until interrupted.
func (c *serveCmd) Run(e *env) error {
	cfg := daemon.Config{Backend: c.Backend, Desktop: c.Desktop, Headless: c.Headless, StateDir: c.StateDir, Listen: c.Listen,
		TLSCert: c.TLSCert, TLSKey: c.TLSKey, InsecureRemote: c.InsecureRemote, Host: c.Host, Prefix: c.Prefix, Console: c.Console,
		SnapInterval: c.SnapInterval, SnapResync: c.SnapResync, HubURL: c.Hub, HubSeed: c.HubNkey, HubCA: c.HubCA, HubRole: c.HubRole}
	if c.Hub != "" && c.HubNkey == "" {
		return model.Errorf(model.CodeBadRequest, "Give --hub-nkey: the hub's hub-leaf.nk.", "--hub needs the hub's leaf credential")
	}
	if cfg.SnapInterval <= 0 {
		cfg.SnapInterval = -1 // off
	}
	if c.HistoryMB < 1 {
		return model.Errorf(model.CodeBadRequest, "Give --history-mb 1 or more.", "--history-mb %d keeps no history", c.HistoryMB)
	}
	cfg.EventStream = embedded.StreamLimits{MaxBytes: c.HistoryMB << 20, MaxAge: embedded.EventStreamLimits.MaxAge}
	for _, a := range c.SnapApps {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if pid, err := strconv.Atoi(a); err == nil {
			cfg.SnapApps = append(cfg.SnapApps, model.AppQuery{PID: pid})
		} else {
			cfg.SnapApps = append(cfg.SnapApps, model.AppQuery{Name: a})
		}
	}
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(c.LogLevel)) // the enum admits only levels
	cfg.Log = slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lv}))

	daemon.SetGCPolicy()
	d, err := daemon.Start(cfg)
	if err != nil {
		return err
	}
	printBanner(e.stdout, d)
	<-e.ctx.Done()
	cfg.Log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return d.Close(shutdownCtx)
}

// defaultHost is this machine's short host name: the host token of its subjects.
func defaultHost() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	h, _, _ = strings.Cut(h, ".")
	return api.Token(h)
}

// serveVars are the defaults of serve's flags that are computed.
func serveVars() map[string]string {
	return map[string]string{"listen": embedded.DefaultListen, "host": defaultHost(),
		"history_mb": strconv.FormatInt(embedded.EventStreamLimits.MaxBytes>>20, 10)}
}
