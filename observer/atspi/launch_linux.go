//go:build linux

package atspi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/axbus/axbus/model"
)

// Launch starts a desktop entry's command or a command, in the desktop's environment (its
// display, session bus and accessibility bus), in a session of its own so that it outlives
// the daemon as an app started from a menu does; the daemon reaps it.
func (b *Backend) Launch(ctx context.Context, spec model.LaunchSpec) (model.Launched, error) {
	if err := spec.Check(); err != nil {
		return model.Launched{}, err
	}
	env := b.launchEnv()
	argv, dir, names := spec.Command, "", []string{}
	if spec.Entry != "" {
		e, err := findEntry(spec.Entry, applicationDirs(envLookup(env)))
		if err != nil {
			return model.Launched{}, err
		}
		if e.Terminal {
			return model.Launched{}, model.Errorf(model.CodeNotSupported, "Launch the program in a terminal app as a command.",
				"desktop entry %s runs in a terminal", e.ID)
		}
		argv, dir, names = e.Exec, e.Dir, []string{e.Name, e.WMClass, strings.TrimSuffix(e.ID, ".desktop")}
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return model.Launched{}, model.Errorf(model.CodeAppNotFound, "Check the program's name and that it is installed (on PATH).",
			"cannot launch %q: %v", argv[0], err)
	}
	cmd := exec.Command(prog, argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil { // stdin, stdout and stderr are /dev/null
		return model.Launched{}, model.Errorf(model.CodeActionFailed, "Check that the program can run.", "cannot launch %s: %v", prog, err).Wrap(err)
	}
	ended := make(chan error, 1)
	go func() { // no zombie; the app's exit is seen on the accessibility bus too
		ended <- cmd.Wait()
		close(ended)
	}()
	b.log.Info("atspi: launched", "program", filepath.Base(prog), "pid", cmd.Process.Pid)
	names = append(names, filepath.Base(prog))
	return model.Launched{PID: cmd.Process.Pid, Names: slices.DeleteFunc(names, func(n string) bool { return n == "" }), Ended: ended}, nil
}

// launchEnv is the environment of launched apps: the daemon's, on the desktop it observes, with
// accessibility on (NO_AT_BRIDGE and GTK_A11Y=none removed); a headless desktop's when set.
func (b *Backend) launchEnv() []string {
	if b.cfg.launchEnv != nil {
		return slices.Clone(b.cfg.launchEnv)
	}
	set := map[string]string{}
	if b.cfg.display != "" {
		set["DISPLAY"] = b.cfg.display
	}
	if b.cfg.xauthority != "" {
		set["XAUTHORITY"] = b.cfg.xauthority
	}
	if b.cfg.sessionAddr != "" {
		set["DBUS_SESSION_BUS_ADDRESS"] = b.cfg.sessionAddr
	}
	if b.cfg.a11yAddr != "" {
		set["AT_SPI_BUS_ADDRESS"] = b.cfg.a11yAddr
	}
	var env []string
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if _, over := set[k]; over || k == "NO_AT_BRIDGE" || (k == "GTK_A11Y" && v == "none") {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// envLookup looks a variable up in env.
func envLookup(env []string) func(string) string {
	return func(key string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
				return v
			}
		}
		return ""
	}
}

// Quit asks app to quit as closing its windows does (WM_DELETE_WINDOW to each that takes it;
// an app may ask to save first), or SIGTERM when it has none; force is SIGKILL.
func (b *Backend) Quit(ctx context.Context, app model.App, force bool) error {
	if app.PID <= 0 || app.PID == os.Getpid() {
		return model.Errorf(model.CodeBadRequest, "Name another app.", "cannot quit pid %d", app.PID)
	}
	signal := func(sig syscall.Signal) error {
		if err := syscall.Kill(app.PID, sig); err != nil {
			if err == syscall.ESRCH {
				return nil // gone already
			}
			return model.Errorf(model.CodePermissionDenied, "Quit apps of this user only.", "cannot signal pid %d: %v", app.PID, err).Wrap(err)
		}
		return nil
	}
	if force {
		return signal(syscall.SIGKILL)
	}
	if x, err := b.xconn(); err == nil && x.CloseWindowsOf(app.PID) > 0 {
		return nil
	}
	return signal(syscall.SIGTERM)
}
