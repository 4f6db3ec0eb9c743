package ax

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"

	"github.com/axbus/axbus/model"

	"github.com/ebitengine/purego/objc"
)

// Starting and ending apps through AppKit. An entry is found with NSWorkspace (by bundle id, or by
// name in the Applications folders) and started with -launchApplicationAtURL:options:
// configuration:error:, deprecated since macOS 11 but working, because its replacement
// (-openApplicationAtURL:configuration:completionHandler:) answers only through a block, and a
// block is a C callback per call (purego_test.go keeps them a fixed set). It answers the
// NSRunningApplication at once, which gives the pid. A command is started as on Linux. Quitting
// asks NSRunningApplication (-terminate is what the app's Quit menu item does, and it may ask to
// save), with signals for a process AppKit does not know.

// launchAsync is NSWorkspaceLaunchDefault (NSWorkspaceLaunchAsync): return once the launch is
// under way, the app activated as the Dock would.
const launchAsync = 0x00010000

// launchNames are the classes and selectors of launching, looked up once after load.
var launchNames struct {
	once                               sync.Once
	url, dictionary                    objc.Class
	fileURL, forBundle, fullPath, dict objc.SEL
	launchAt, responds, describe, path objc.SEL
	terminate, forceTerminate          objc.SEL
}

func lookupLaunch() {
	launchNames.once.Do(func() {
		n := &launchNames
		n.url, n.dictionary = objc.GetClass("NSURL"), objc.GetClass("NSDictionary")
		n.fileURL, n.forBundle = objc.RegisterName("fileURLWithPath:"), objc.RegisterName("URLForApplicationWithBundleIdentifier:")
		n.fullPath, n.dict = objc.RegisterName("fullPathForApplication:"), objc.RegisterName("dictionary")
		n.launchAt = objc.RegisterName("launchApplicationAtURL:options:configuration:error:")
		n.responds, n.describe = objc.RegisterName("respondsToSelector:"), objc.RegisterName("localizedDescription")
		n.path = objc.RegisterName("path")
		n.terminate, n.forceTerminate = objc.RegisterName("terminate"), objc.RegisterName("forceTerminate")
	})
}

// Launch starts the app spec names and returns once the launch is under way: an entry through
// NSWorkspace (an app already running is activated, and its pid answered), a command as a
// process of its own session, reaped here.
func (b *Backend) Launch(ctx context.Context, spec model.LaunchSpec) (model.Launched, error) {
	if err := b.checkOpen(); err != nil {
		return model.Launched{}, err
	}
	if err := spec.Check(); err != nil {
		return model.Launched{}, err
	}
	if ctx.Err() != nil {
		return model.Launched{}, errEnded(ctx, "the launch")
	}
	if len(spec.Command) > 0 {
		return b.launchCommand(spec.Command)
	}
	var l model.Launched
	var err error
	withPool(func() {
		lookupLaunch()
		l, err = launchEntry(spec.Entry)
	})
	if err == nil {
		b.log.Info("ax: launched", "entry", spec.Entry, "pid", l.PID)
	}
	return l, err
}

// launchEntry opens the app entry names; callers hold a pool.
func launchEntry(entry string) (model.Launched, error) {
	n := &launchNames
	url := appURL(entry)
	if url == 0 {
		return model.Launched{}, model.Errorf(model.CodeAppNotFound,
			"Give the bundle id (mdls -name kMDItemCFBundleIdentifier /Applications/X.app) or the app's name as in /Applications.",
			"no app is installed as %q", entry)
	}
	ws := objc.ID(objcNames.workspace).Send(objcNames.shared)
	if ws == 0 {
		return model.Launched{}, errNoWorkspace()
	}
	if !responds(ws, n.launchAt) {
		return model.Launched{}, model.Errorf(model.CodeNotSupported, "Launch the app with a command instead: [\"open\", \"-a\", \"X\"].",
			"this macOS has no -[NSWorkspace launchApplicationAtURL:options:configuration:error:]")
	}
	config := objc.ID(n.dictionary).Send(n.dict) // no configuration: an empty dictionary (autoreleased)
	var nsErr objc.ID
	ra := ws.Send(n.launchAt, url, uint64(launchAsync), config, &nsErr)
	if ra == 0 {
		why := "no reason given"
		if nsErr != 0 {
			why = nsString(nsErr.Send(n.describe))
		}
		return model.Launched{}, model.Errorf(model.CodeActionFailed, "Open the app once from Finder (macOS may ask to confirm it), then retry.",
			"macOS did not launch %s: %s", nsString(url.Send(n.path)), why)
	}
	pid := int(objc.Send[int32](ra, objcNames.pid)) // -1 until the process exists
	names := []string{nsString(ra.Send(objcNames.name)), nsString(ra.Send(objcNames.bundleID)), BundleName(nsString(url.Send(n.path)))}
	if KindOf(entry) != EntryPath {
		names = append(names, entry)
	}
	return model.Launched{PID: max(pid, 0), Names: slices.DeleteFunc(names, func(s string) bool { return s == "" })}, nil
}

// appURL is the file URL (autoreleased) of the app entry names, 0 when none is installed so:
// a bundle id as LaunchServices knows it, a bundle's path as it is, a name as NSWorkspace finds
// it or, failing that, in the Applications folders.
func appURL(entry string) objc.ID {
	n := &launchNames
	ws := objc.ID(objcNames.workspace).Send(objcNames.shared)
	if ws == 0 {
		return 0
	}
	home, _ := os.UserHomeDir()
	switch KindOf(entry) {
	case EntryPath:
		return fileURL(ExpandHome(entry, home))
	case EntryBundleID:
		id := createString(entry)
		defer release(id)
		if url := ws.Send(n.forBundle, id); url != 0 {
			return url
		}
	}
	if responds(ws, n.fullPath) { // deprecated in macOS 10.15, still answering
		s := createString(entry)
		defer release(s)
		if p := nsString(ws.Send(n.fullPath, s)); p != "" {
			if url := fileURL(p); url != 0 {
				return url
			}
		}
	}
	for _, p := range AppCandidates(entry, home) {
		if url := fileURL(p); url != 0 {
			return url
		}
	}
	return 0
}

// fileURL is the file URL (autoreleased) of an existing app bundle at path, 0 when there is none.
func fileURL(path string) objc.ID {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return 0
	}
	s := createString(path)
	defer release(s)
	return objc.ID(launchNames.url).Send(launchNames.fileURL, s)
}

// responds reports whether obj answers sel: a deprecated method Apple removes would otherwise
// raise an Objective-C exception, which ends the process.
func responds(obj objc.ID, sel objc.SEL) bool {
	return objc.Send[bool](obj, launchNames.responds, sel)
}

// launchCommand starts argv in a session of its own (so that it outlives the daemon as an app
// started from the Dock does), stdin, stdout and stderr on /dev/null, and reaps it.
func (b *Backend) launchCommand(argv []string) (model.Launched, error) {
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return model.Launched{}, model.Errorf(model.CodeAppNotFound, "Check the program's name and that it is installed (on PATH), or give its full path.",
			"cannot launch %q: %v", argv[0], err)
	}
	cmd := exec.Command(prog, argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil { // nil stdio is /dev/null
		return model.Launched{}, model.Errorf(model.CodeActionFailed, "Check that the program can run.", "cannot launch %s: %v", prog, err).Wrap(err)
	}
	ended := make(chan error, 1)
	go func() { // no zombie; the app's exit is seen by the app poller too
		ended <- cmd.Wait()
		close(ended)
	}()
	b.log.Info("ax: launched", "program", filepath.Base(prog), "pid", cmd.Process.Pid)
	return model.Launched{PID: cmd.Process.Pid, Names: []string{filepath.Base(prog)}, Ended: ended}, nil
}

// Quit asks app to quit as its Quit menu item does (-[NSRunningApplication terminate]; it may
// ask to save first) or, with force, ends it at once (-forceTerminate); a process AppKit does not
// know as an app gets SIGTERM or SIGKILL. A pid that another process has taken since app was
// listed is left alone.
func (b *Backend) Quit(ctx context.Context, app model.App, force bool) error {
	if err := b.checkOpen(); err != nil {
		return err
	}
	if app.PID <= 0 || app.PID == b.self {
		return model.Errorf(model.CodeBadRequest, "Name another app.", "cannot quit pid %d", app.PID)
	}
	if ctx.Err() != nil {
		return errEnded(ctx, "the quit")
	}
	if gone, err := b.replaced(app); gone || err != nil {
		return err
	}
	known, asked := false, false
	withPool(func() {
		lookupLaunch()
		ra := objc.ID(objcNames.runningApp).Send(objcNames.withPID, int32(app.PID))
		if ra == 0 {
			return
		}
		known = true
		sel := launchNames.terminate
		if force {
			sel = launchNames.forceTerminate
		}
		asked = objc.Send[bool](ra, sel)
	})
	switch {
	case known && (asked || !processAlive(app.PID)):
		return nil
	case known:
		return model.Errorf(model.CodeActionFailed, "Quit it from its menu, or quit with force.",
			"app pid %d refused to be asked to quit", app.PID).With("pid", app.PID)
	}
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(app.PID, sig); err != nil && err != syscall.ESRCH { // ESRCH: gone already
		return model.Errorf(model.CodePermissionDenied, "Quit apps of this user only.", "cannot signal pid %d: %v", app.PID, err).Wrap(err)
	}
	return nil
}

// replaced reports whether app's process is gone (nothing to quit), and fails with APP_GONE when
// its pid now belongs to another process (app.Instance is its process's start time).
func (b *Backend) replaced(app model.App) (gone bool, err error) {
	if app.Instance == "" {
		return false, nil
	}
	procs, err := processes()
	if err != nil {
		return false, err
	}
	for _, p := range procs {
		if p.pid != app.PID {
			continue
		}
		if p.instance() != app.Instance {
			return true, errAppGone(app.PID, "quitting "+app.Name)
		}
		return false, nil
	}
	return true, nil
}

func errNoWorkspace() *model.Error {
	return model.Errorf(model.CodeUnavailable, "Run axbus in the logged-in user's GUI session.", "AppKit has no shared NSWorkspace")
}
