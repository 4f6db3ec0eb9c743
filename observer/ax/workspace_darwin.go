package ax

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/ebitengine/purego/objc"
	"golang.org/x/sys/unix"
)

// The running apps, from AppKit through purego/objc. NSWorkspace's list of running apps and
// NSRunningApplication's changing properties are refreshed only by turns of the main run loop,
// which a Go program does not run; so the list is read once, to seed, and afterwards the
// kernel's process table (sysctl kern.proc.all, always current) says which processes started
// and ended, and each new process is asked about on its own
// (+[NSRunningApplication runningApplicationWithProcessIdentifier:]).

// The activation policies of NSRunningApplication: regular apps (in the Dock) and accessory apps
// (menu extras, agents with windows) have UI; prohibited ones (background-only) do not.
const (
	activationPolicyRegular   = 0
	activationPolicyAccessory = 1
)

// activateIgnoringOtherApps is NSApplicationActivateIgnoringOtherApps; from macOS 14 it has no
// effect (front.go falls back to AXFrontmost).
const activateIgnoringOtherApps = 1 << 1

// proc is one process of the kernel's table: its pid and start time, which tells a reused
// pid from the process that had it, and whether it runs as this process's user (apps of other
// users are out of reach).
type proc struct {
	pid   int
	start time.Time
	mine  bool
}

// instance is a process's identity as model.App.Instance: its start time.
func (p proc) instance() string {
	return fmt.Sprintf("%d.%09d", p.start.Unix(), p.start.Nanosecond())
}

// processes lists the running processes.
func processes() ([]proc, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, model.Errorf(model.CodeUnavailable, "Retry; if it persists, report it with the daemon's log.",
			"cannot list the processes (sysctl kern.proc.all): %v", err).Wrap(err)
	}
	uid := uint32(os.Geteuid())
	out := make([]proc, 0, len(kps))
	for _, kp := range kps {
		tv := kp.Proc.P_starttime
		out = append(out, proc{pid: int(kp.Proc.P_pid), start: time.Unix(tv.Sec, int64(tv.Usec)*1000),
			mine: uid == 0 || kp.Eproc.Ucred.Uid == uid})
	}
	return out, nil
}

// objcNames are the classes and selectors used, looked up once after load.
var objcNames struct {
	once                                                   sync.Once
	workspace, runningApp                                  objc.Class
	shared, running, count, at, withPID                    objc.SEL
	pid, policy, name, bundleID, utf8, activateWithOptions objc.SEL
}

func lookupObjC() {
	objcNames.once.Do(func() {
		n := &objcNames
		n.workspace, n.runningApp = objc.GetClass("NSWorkspace"), objc.GetClass("NSRunningApplication")
		n.shared, n.running = objc.RegisterName("sharedWorkspace"), objc.RegisterName("runningApplications")
		n.count, n.at = objc.RegisterName("count"), objc.RegisterName("objectAtIndex:")
		n.withPID = objc.RegisterName("runningApplicationWithProcessIdentifier:")
		n.pid, n.policy = objc.RegisterName("processIdentifier"), objc.RegisterName("activationPolicy")
		n.name, n.bundleID = objc.RegisterName("localizedName"), objc.RegisterName("bundleIdentifier")
		n.utf8, n.activateWithOptions = objc.RegisterName("UTF8String"), objc.RegisterName("activateWithOptions:")
	})
}

// withPool runs fn inside an autorelease pool, on one thread (a pool belongs to its thread):
// the objects AppKit hands out are autoreleased, and no run loop drains them here.
func withPool(fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := objcAutoreleasePoolPush()
	defer objcAutoreleasePoolPop(pool)
	lookupObjC()
	fn()
}

// workspaceApps lists NSWorkspace's running apps that have UI, by pid.
func workspaceApps() map[int]model.App {
	out := map[int]model.App{}
	withPool(func() {
		n := &objcNames
		list := objc.ID(n.workspace).Send(n.shared).Send(n.running)
		for i := range objc.Send[uint64](list, n.count) {
			if a, ok := appOf(list.Send(n.at, i)); ok {
				out[a.PID] = a
			}
		}
	})
	return out
}

// runningApp asks AppKit about process pid: false when it is not an app with UI.
func runningApp(pid int) (a model.App, ok bool) {
	withPool(func() {
		a, ok = appOf(objc.ID(objcNames.runningApp).Send(objcNames.withPID, int32(pid)))
	})
	return a, ok
}

// appOf reads an NSRunningApplication; callers hold a pool.
func appOf(ra objc.ID) (model.App, bool) {
	n := &objcNames
	if ra == 0 {
		return model.App{}, false
	}
	switch objc.Send[int64](ra, n.policy) {
	case activationPolicyRegular, activationPolicyAccessory:
	default:
		return model.App{}, false
	}
	return model.App{
		PID:  int(objc.Send[int32](ra, n.pid)),
		Name: nsString(ra.Send(n.name)),
		ID:   nsString(ra.Send(n.bundleID)),
	}, true
}

// nsString copies an NSString out; "" for nil.
func nsString(s objc.ID) string {
	if s == 0 {
		return ""
	}
	return objc.Send[string](s, objcNames.utf8)
}

// activate asks AppKit to bring app pid to the front; false when it does not know the app or
// refuses. true is no promise: from macOS 14 a request may be ignored (front.go checks).
func activate(pid int) (ok bool) {
	withPool(func() {
		ra := objc.ID(objcNames.runningApp).Send(objcNames.withPID, int32(pid))
		ok = ra != 0 && objc.Send[bool](ra, objcNames.activateWithOptions, uint64(activateIgnoringOtherApps))
	})
	return ok
}
