package ax

import (
	"context"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/axbus/axbus/model"
	"github.com/axbus/axbus/observer"
)

// A person's mouse and keyboard, for a recording of their session: a listen-only CGEventTap on
// the login session, on a run loop of its own. Built and vetted from Linux, not run on a Mac
// here (the README says so).

// The CGEventTapCreate arguments: the session's events, at the head, listening only.
const (
	cgSessionEventTap          = 1
	cgHeadInsertEventTap       = 0
	cgEventTapOptionListenOnly = 1
	cgKeyboardEventKeycode     = 9 // kCGKeyboardEventKeycode

	// personEventMask is the tap's events of interest: the buttons and keys pressed.
	personEventMask = 1<<cgEventLeftMouseDown | 1<<cgEventRightMouseDown | 1<<cgEventOtherMouseDown | 1<<cgEventKeyDown
	// The event types a tap is told it was switched off by: too slow, or the user's secure input.
	cgEventTapDisabledByTime = 0xFFFFFFFE
	cgEventTapDisabledByUser = 0xFFFFFFFF
)

// InputMonitoringSuggestion is what to do when macOS refuses the event tap.
const InputMonitoringSuggestion = "Allow this program in System Settings > Privacy & Security > Input Monitoring (and Accessibility), then start it again."

// personQueue bounds the presses waiting for the recording's goroutine: a person does not press
// this many at once; past it they are dropped rather than the tap's thread held.
const personQueue = 256

// inputTap is one WatchInput: its tap, its run loop and the goroutine that delivers.
type inputTap struct {
	token      uintptr
	loop       *runLoop
	port, src  uintptr
	events     chan observer.PersonInput
	stopOnce   sync.Once
	delivering sync.WaitGroup
}

// WatchInput delivers each button and key a person presses, on a goroutine of its own, until
// stop. Without the Input Monitoring permission it is PERMISSION_DENIED.
func (b *Backend) WatchInput(fn func(observer.PersonInput)) (stop func(), err error) {
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	initCallbacks()
	t := &inputTap{events: make(chan observer.PersonInput, personQueue), loop: startRunLoop()}
	t.token = addTapRoute(t)
	t.loop.do(func() {
		t.port = cgEventTapCreate(cgSessionEventTap, cgHeadInsertEventTap, cgEventTapOptionListenOnly, personEventMask,
			callbacks.ptr[cbEventTap], t.token)
		if t.port == 0 {
			return
		}
		t.src = cfMachPortCreateRunLoopSource(0, t.port, 0)
		cfRunLoopAddSource(t.loop.rl, t.src, kCFRunLoopDefaultMode)
		cgEventTapEnable(t.port, true)
	})
	if t.port == 0 {
		dropRoute(t.token)
		t.loop.stop()
		return nil, model.Errorf(model.CodePermissionDenied, InputMonitoringSuggestion, "macOS refused to let this process hear the keyboard and mouse (CGEventTapCreate)")
	}
	t.delivering.Add(1)
	go func() {
		defer t.delivering.Done()
		for in := range t.events {
			fn(in)
		}
	}()
	return t.stop, nil
}

// stop switches the tap off, ends its run loop and waits for the last delivery.
func (t *inputTap) stop() {
	t.stopOnce.Do(func() {
		t.loop.do(func() {
			cgEventTapEnable(t.port, false)
			cfRunLoopRemoveSource(t.loop.rl, t.src, kCFRunLoopDefaultMode)
			cfMachPortInvalidate(t.port)
			release(t.src)
			release(t.port)
		})
		dropRoute(t.token) // after the source left the loop: no callback runs with it any more
		t.loop.stop()
		close(t.events)
		t.delivering.Wait()
	})
}

// heard takes one event on the tap's thread: read at once (the event is the callback's only),
// queued for the delivering goroutine. A tap macOS switched off (too slow, or by the user's
// secure input) is switched on again.
func (t *inputTap) heard(typ uint32, event uintptr) {
	switch typ {
	case cgEventTapDisabledByTime, cgEventTapDisabledByUser:
		cgEventTapEnable(t.port, true)
		return
	}
	e := tapEvent{typ: typ, flags: cgEventGetFlags(event)}
	if typ == cgEventKeyDown {
		e.code = uint16(cgEventGetIntegerValueField(event, cgKeyboardEventKeycode))
		var buf [8]uint16
		var n uint64
		cgEventKeyboardGetUnicodeString(event, uint64(len(buf)), &n, &buf[0])
		e.text = string(utf16.Decode(buf[:min(n, uint64(len(buf)))]))
	} else {
		at := cgEventGetLocation(event)
		e.x, e.y = at.x, at.y
	}
	select {
	case t.events <- personInput(e, time.Now()):
	default: // the recording fell this far behind: drop rather than hold the person's input
	}
}

// ElementAt is the deepest element at the global point (x, y), with its app and its window: the
// window server's hit test (AXUIElementCopyElementAtPosition), then AXParent up to the window.
func (b *Backend) ElementAt(ctx context.Context, x, y float64) (model.App, model.Window, model.NodeRef, error) {
	if err := b.checkOpen(); err != nil {
		return model.App{}, model.Window{}, "", err
	}
	var hit uintptr
	if code := axUIElementCopyElementAtPosition(systemWide(), float32(x), float32(y), &hit); code != AXSuccess || hit == 0 {
		return model.App{}, model.Window{}, "", model.Errorf(model.CodeElementNotFound, "Click on an app's window.",
			"no element at (%v, %v)", x, y)
	}
	var pid int32
	axUIElementGetPid(hit, &pid)
	deepest := b.refs.intern(hit)
	release(hit)
	if deepest == "" {
		return model.App{}, model.Window{}, "", model.Errorf(model.CodeElementNotFound, "Click on an app's window.", "no app's element at (%v, %v)", x, y)
	}
	window := model.NodeRef("")
	for ref, steps := deepest, 0; ref != "" && steps < 64; steps++ {
		if ctx.Err() != nil {
			return model.App{}, model.Window{}, "", errEnded(ctx, "finding the element's window")
		}
		role, parent, err := b.hitStep(ref)
		if err != nil {
			return model.App{}, model.Window{}, "", err
		}
		if role == "AXWindow" {
			window = ref
			break
		}
		ref = parent
	}
	apps, err := b.Apps(ctx)
	if err != nil {
		return model.App{}, model.Window{}, "", err
	}
	var app model.App
	for _, a := range apps {
		if a.PID == int(pid) {
			app = a
		}
	}
	if app.PID == 0 {
		return model.App{}, model.Window{}, "", model.Errorf(model.CodeAppNotFound, "Click on an app's window.", "the element at (%v, %v) is of no app axbus lists (pid %d)", x, y, pid)
	}
	wins, err := b.Windows(ctx, app.PID)
	if err != nil {
		return model.App{}, model.Window{}, "", err
	}
	for _, w := range wins {
		if w.Ref == window {
			return app, w, deepest, nil
		}
	}
	return model.App{}, model.Window{}, "", model.Errorf(model.CodeWindowNotFound, "Click inside one of the app's windows.",
		"the element at (%v, %v) is in no window of %s", x, y, app.Name)
}
