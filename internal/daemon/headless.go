package daemon

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/headless"
)

// Headless is a private headless desktop the daemon runs, with its fixture app.
type Headless struct {
	Session *headless.Session
	App     *headless.App
}

// Close stops the fixture app and the desktop.
func (h *Headless) Close() error { return h.Session.Close() }

// hasDesktop reports whether this process runs inside a desktop session.
func hasDesktop() bool {
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") != ""
}

// StartHeadless brings up the private desktop when cfg asks for it, in <state dir>/headless so
// that other terminals find the fixture app's control socket, and points cfg's backend at it.
// It returns nil when cfg.Headless does not ask for one. The caller owns stateDir (the daemon
// holds its lock).
func StartHeadless(cfg *Config, stateDir string) (*Headless, error) {
	switch cfg.Headless {
	case "", "never":
		return nil, nil
	case "auto":
		if hasDesktop() || platformBackend != "atspi" || !servesPlatform(cfg.Backend) {
			return nil, nil // a desktop is there, or the backend needs none (sim)
		}
	case "always":
		if !servesPlatform(cfg.Backend) {
			return nil, model.Errorf(model.CodeBadRequest, "Drop --headless always, or use --backend atspi.",
				"the %s backend serves no headless desktop", cfg.Backend)
		}
	default:
		return nil, model.Errorf(model.CodeBadRequest, "Use --headless never, auto or always.", "unknown --headless %q", cfg.Headless)
	}
	if err := headless.Available(); err != nil {
		return nil, model.Errorf(model.CodeUnavailable, "Run make deps (or install the packages it names).", "%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := headless.Start(ctx, headless.WithDir(filepath.Join(stateDir, "headless")), headless.WithLogger(cfg.Log.With("part", "headless")))
	if err != nil {
		return nil, err
	}
	app, err := sess.StartApp(ctx, headless.KindGTK3)
	if err != nil {
		_ = sess.Close()
		return nil, err
	}
	if cfg.Backend == "" || cfg.Backend == "auto" {
		cfg.Backend = "atspi"
	}
	cfg.SessionBus, cfg.A11yBus, cfg.Display, cfg.XAuthority = sess.SessionBus, sess.A11yBus, sess.Display, sess.XAuthority
	cfg.LaunchEnv = sess.Env()
	return &Headless{Session: sess, App: app}, nil
}

// servesPlatform says whether backend is this platform's accessibility (the one a headless
// desktop is for).
func servesPlatform(backend string) bool {
	return backend == "" || backend == "auto" || backend == platformBackend
}
