package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/observer"
)

func runServe(ctx context.Context, args []string, out io.Writer) error {
	cfg := daemon.Config{}
	var level string
	fs := newFlags("serve", "[flags]")
	fs.StringVar(&cfg.Backend, "backend", "auto", "accessibility backend: auto or one of "+strings.Join(daemon.Backends(), ", "))
	fs.StringVar(&cfg.Desktop, "desktop", "demo", "simulated desktop for --backend sim: a fixture name or a JSON file")
	fs.StringVar(&cfg.StateDir, "state-dir", "", "state dir: JetStream store, credentials, lock (default: the user's state dir)")
	fs.StringVar(&cfg.Listen, "listen", embedded.DefaultListen, "client listen address; one other machines can reach (not loopback) needs --tls-cert and --tls-key, or --insecure-remote")
	fs.StringVar(&cfg.TLSCert, "tls-cert", "", "require TLS on the client port with this PEM certificate (with --tls-key)")
	fs.StringVar(&cfg.TLSKey, "tls-key", "", "the PEM private key of --tls-cert")
	fs.BoolVar(&cfg.InsecureRemote, "insecure-remote", false, "accept a --listen address other machines can reach without TLS: they could read and alter all traffic")
	fs.StringVar(&cfg.Host, "host", defaultHost(), "host id used in subjects")
	fs.StringVar(&cfg.Prefix, "prefix", bus.DefaultPrefix, "subject prefix")
	fs.StringVar(&cfg.Headless, "headless", "never", "run a private headless desktop with the GTK fixture app: never, auto (when there is no desktop session) or always (Linux)")
	var snapApps string
	fs.DurationVar(&cfg.SnapInterval, "snap-interval", time.Second, "polled snapshot diffs on ax.<host>.snap.<app> (an app is polled only while someone subscribes): how often; 0 or less turns them off")
	fs.IntVar(&cfg.SnapResync, "snap-resync", 10, "a full re-read every this many snapshot cycles, for changes no notification announced (0: never)")
	fs.StringVar(&snapApps, "snap-apps", "", "poll only these apps: comma-separated names or pids (default: every app someone subscribes to)")
	fs.StringVar(&level, "log-level", "info", "debug, info, warn or error")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	if cfg.SnapInterval <= 0 {
		cfg.SnapInterval = -1 // off
	}
	for _, a := range strings.Split(snapApps, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if pid, err := strconv.Atoi(a); err == nil {
			cfg.SnapApps = append(cfg.SnapApps, observer.AppQuery{PID: pid})
		} else {
			cfg.SnapApps = append(cfg.SnapApps, observer.AppQuery{Name: a})
		}
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		fmt.Fprintf(os.Stderr, "axbus serve: bad --log-level %q\n", level)
		return errUsage
	}
	cfg.Log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))

	daemon.SetGCPolicy()
	d, err := daemon.Start(cfg)
	if err != nil {
		return err
	}
	printBanner(out, d)
	<-ctx.Done()
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
	return bus.Token(h)
}
