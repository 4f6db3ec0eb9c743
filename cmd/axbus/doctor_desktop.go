package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/xwindows"
)

// doctorDesktop is the Linux desktop whose X display and session bus the doctor looks at beside the backend:
// the one the backend serves, in this process or in the daemon's. What toolkits need from it (the root window's
// AT_SPI_BUS, org.a11y.Status IsEnabled) and the windows shown on it are checked there.
type doctorDesktop struct {
	Display, XAuthority, SessionBus string
	// Whose names it in the report.
	Whose string
	// Unreachable says why the desktop cannot be looked at from here ("" when it can).
	Unreachable string
	// standalone: the doctor's own backend turns IsEnabled on, so what it read before is what apps saw.
	standalone bool
	facts      deskFacts
	x          *xwindows.Display // opened on first use
	xerr       error
}

// desktopHere is the desktop a standalone check serves: its own headless one, else this session's. Nil off
// Linux or with another backend than AT-SPI's: there is no X11 desktop to look at.
func desktopHere(cfg daemon.Config, desk *daemon.Headless) *doctorDesktop {
	if runtime.GOOS != "linux" || (cfg.Backend != "auto" && cfg.Backend != "atspi") {
		return nil
	}
	if desk != nil {
		s := desk.Session
		return &doctorDesktop{Display: s.Display, XAuthority: s.XAuthority, SessionBus: s.SessionBus, Whose: "the private headless desktop", standalone: true}
	}
	return &doctorDesktop{Display: os.Getenv("DISPLAY"), XAuthority: os.Getenv("XAUTHORITY"),
		SessionBus: os.Getenv("DBUS_SESSION_BUS_ADDRESS"), Whose: "this session's desktop", standalone: true}
}

// desktopOfDaemon is the desktop a running daemon serves: its headless one (<state dir>/headless, while its
// session bus answers), else the one its process's environment names. A daemon whose process cannot be read
// here (another machine's, another user's) leaves the desktop unreachable. Nil for a daemon whose backend is not
// AT-SPI's.
func desktopOfDaemon(info embedded.Info, backend string) *doctorDesktop {
	if backend != "atspi" {
		return nil
	}
	dir := filepath.Join(info.StateDir, "headless")
	if env, err := headless.JoinEnv(dir); err == nil {
		if dd := desktopOfEnv(env, "the daemon's headless desktop"); busAnswers(dd.SessionBus) {
			return dd
		}
	}
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(info.PID), "environ"))
	if err != nil {
		return &doctorDesktop{Unreachable: fmt.Sprintf("the daemon's process (pid %d) cannot be read here: it runs on another machine or as another user (run axbus doctor --standalone where it runs)", info.PID)}
	}
	return desktopOfEnv(splitNUL(b), "the daemon's desktop")
}

// desktopOfEnv is the desktop an environment names.
func desktopOfEnv(env []string, whose string) *doctorDesktop {
	p := procInfo{Environ: env}
	return &doctorDesktop{Display: p.env("DISPLAY"), XAuthority: p.env("XAUTHORITY"), SessionBus: p.env("DBUS_SESSION_BUS_ADDRESS"), Whose: whose}
}

// busAnswers says whether a unix:path= bus address has a listener (a headless session's, not a stale file's).
func busAnswers(addr string) bool {
	path, ok := strings.CutPrefix(addr, "unix:path=")
	if !ok {
		return false
	}
	path, _, _ = strings.Cut(path, ",")
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// display is the connection to the desktop's X server, opened on first use.
func (dd *doctorDesktop) display() (*xwindows.Display, error) {
	if dd.x == nil && dd.xerr == nil {
		if dd.Display == "" {
			dd.xerr = fmt.Errorf("%s has no X display (DISPLAY is not set; under Wayland only XWayland's windows could be listed)", dd.Whose)
		} else if dd.x, dd.xerr = xwindows.Open(dd.Display, dd.XAuthority); dd.xerr != nil {
			dd.xerr = errors.New(strings.TrimSpace(dd.xerr.Error())) // xgb's end in a newline
		}
	}
	return dd.x, dd.xerr
}

// close closes the X connection, if one was opened.
func (dd *doctorDesktop) close() {
	if dd != nil && dd.x != nil {
		dd.x.Close()
		dd.x = nil
	}
}

// desktopChecks checks what Qt and Chromium need from the desktop to publish their trees: the accessibility bus
// named on the root window (AT_SPI_BUS) and org.a11y.Status IsEnabled on the session bus. A standalone check
// calls it before its backend opens, which turns IsEnabled on: the report says what the apps saw.
func (d *doctor) desktopChecks(ctx context.Context, dd *doctorDesktop) {
	if dd == nil {
		return
	}
	if dd.Unreachable != "" {
		d.skip("desktop", "%s", dd.Unreachable)
		return
	}
	enabled, a11yBus, busErr := a11yStatus(ctx, dd.SessionBus)
	dd.facts = deskFacts{SessionBus: dd.SessionBus, A11yBus: a11yBus, Enabled: enabled}
	d.atSpiBusCheck(dd)
	switch {
	case dd.SessionBus == "":
		d.skip("a11y IsEnabled", "%s has no session bus (DBUS_SESSION_BUS_ADDRESS is not set)", dd.Whose)
	case busErr != nil:
		d.fail("a11y IsEnabled", model.Errorf(model.CodeUnavailable,
			"Install at-spi2-core (it provides at-spi-bus-launcher, org.a11y.Bus), then restart the desktop session.",
			"cannot read org.a11y.Status IsEnabled on the session bus %s: %v", dd.SessionBus, busErr))
	case enabled:
		d.pass("a11y IsEnabled", "org.a11y.Status IsEnabled is true on the session bus of %s: Qt and Chromium apps publish their trees", dd.Whose)
	default:
		msg := "org.a11y.Status IsEnabled is false on the session bus of %s: Qt and Chromium apps started while it is off publish no accessibility tree"
		if dd.standalone {
			msg += " (axbus doctor turns it on for its checks; apps started before stay silent until restarted)"
		}
		d.fail("a11y IsEnabled", model.Errorf(model.CodeUnavailable,
			"Turn it on: gsettings set org.gnome.desktop.interface toolkit-accessibility true (axbus serve turns it on as it starts), then restart the Qt and Chromium apps started while it was off.",
			msg, dd.Whose))
	}
}

// atSpiBusCheck checks that the root window names the accessibility bus of the session bus in AT_SPI_BUS.
func (d *doctor) atSpiBusCheck(dd *doctorDesktop) {
	const what = "AT_SPI_BUS"
	x, err := dd.display()
	if dd.Display == "" {
		d.skip(what, "%v", err)
		return
	}
	if err != nil {
		d.fail(what, model.Errorf(model.CodeUnavailable,
			"Check that the X server runs and that XAUTHORITY names its cookie.", "cannot connect to the X display %s of %s: %v", dd.Display, dd.Whose, err))
		return
	}
	want := dd.facts.A11yBus
	setIt := "xprop -root -f AT_SPI_BUS 8s -set AT_SPI_BUS "
	if want != "" {
		setIt += "'" + want + "'"
	} else {
		setIt += "ADDRESS (what org.a11y.Bus.GetAddress answers on the session bus)"
	}
	setIt += ", then restart the Qt apps. at-spi-bus-launcher sets it when it starts with DISPLAY in its environment (dbus-update-activation-environment DISPLAY XAUTHORITY before it starts)."
	got, ok := x.AtSpiBus()
	switch {
	case !ok:
		d.fail(what, model.Errorf(model.CodeUnavailable, "Set it: "+setIt,
			`the root window of %s has no AT_SPI_BUS property: Qt 5 apps find no accessibility bus ("Not connected to D-Bus server") and publish no tree`, dd.Display))
	case want != "" && !sameBus(got, want):
		d.fail(what, model.Errorf(model.CodeUnavailable, "Set it again: "+setIt,
			"the root window of %s names the accessibility bus %s, but the session bus's is %s: Qt apps register where nobody reads (a stale address of an earlier session?)", dd.Display, got, want))
	default:
		dd.facts.AtSpiBus = true
		d.pass(what, "the root window of %s names the accessibility bus %s (Qt finds the bus there)", dd.Display, got)
	}
}

// a11yStatus reads org.a11y.Status IsEnabled and the accessibility bus's address (GetAddress) on a session bus.
func a11yStatus(ctx context.Context, sessionBus string) (enabled bool, a11yBus string, err error) {
	if sessionBus == "" {
		return false, "", nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := dbus.Connect(sessionBus, dbus.WithContext(ctx))
	if err != nil {
		return false, "", err
	}
	defer conn.Close()
	obj := conn.Object("org.a11y.Bus", "/org/a11y/bus")
	var v dbus.Variant
	if err := obj.CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0, "org.a11y.Status", "IsEnabled").Store(&v); err != nil {
		return false, "", err
	}
	enabled, _ = v.Value().(bool)
	_ = obj.CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&a11yBus) // unknown: the AT_SPI_BUS check only sees it is there
	return enabled, a11yBus, nil
}

// skip reports a check that cannot run, and why; it is no failure.
func (d *doctor) skip(what, format string, args ...any) {
	d.line("skip  %-22s %s", what, fmt.Sprintf(format, args...))
}

// warn reports a finding that is no failure: it has no fix a user can apply.
func (d *doctor) warn(what string, e *model.Error) {
	d.line("warn  %-22s %s", what, e.Message)
	d.line("      %-22s %s", "", e.Suggestion)
}
