package ax

import (
	"context"
	"time"
	"unicode/utf16"

	"github.com/axbus/axbus/observer"
)

// Physical input through CGEvent, posted at the HID level in global coordinates (the ones AX
// reports). The app is brought to the front first and input is refused when it does not come:
// keys typed into whatever app is in front could do harm.

// The CGEvent constants (CGEventTypes.h).
const (
	eventLeftMouseDown  = 1
	eventLeftMouseUp    = 2
	eventRightMouseDown = 3
	eventRightMouseUp   = 4
	eventMouseMoved     = 5
	eventOtherMouseDown = 25
	eventOtherMouseUp   = 26

	mouseButtonLeft   = 0
	mouseButtonRight  = 1
	mouseButtonCenter = 2

	fieldMouseClickState = 1 // kCGMouseEventClickState
	hidEventTap          = 0 // kCGHIDEventTap
)

const (
	// inputPause separates synthetic events, so that the app sees them as separate.
	inputPause = 5 * time.Millisecond
	// frontWait bounds the wait for an app to come to the front.
	frontWait = time.Second
)

// Input synthesises a pointer click, typed text or key combinations in app in.PID.
func (b *Backend) Input(ctx context.Context, in observer.Input) error {
	if err := b.checkOpen(); err != nil {
		return err
	}
	if in.PID > 0 {
		if err := b.bringToFront(ctx, in.PID); err != nil {
			return err
		}
	}
	switch in.Kind {
	case observer.InputClick:
		return click(ctx, in)
	case observer.InputType:
		return typeText(ctx, in.Text)
	case observer.InputKey:
		combos, err := parseKeys(in.Keys)
		if err != nil {
			return observer.Errorf(observer.CodeBadRequest, `Give keys like "cmd+a", "shift+Tab" or "Return", separated by spaces.`,
				"%v", err).Wrap(err)
		}
		return pressKeys(ctx, combos)
	}
	return observer.Errorf(observer.CodeBadRequest, "Use click, type or key.", "unknown input kind %q", in.Kind)
}

// bringToFront activates app pid and waits until it is the frontmost app.
func (b *Backend) bringToFront(ctx context.Context, pid int) error {
	if b.frontPID() == pid {
		return nil
	}
	if !activate(pid) {
		if !processAlive(pid) {
			return errNoApp(pid)
		}
		return errNotFront(pid)
	}
	deadline := time.Now().Add(frontWait)
	for b.frontPID() != pid {
		if time.Now().After(deadline) {
			return errNotFront(pid)
		}
		if err := pause(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

func errNotFront(pid int) *observer.Error {
	return observer.Errorf(observer.CodeActionFailed, "Bring the app to the front (close what covers it) and retry.",
		"app pid %d did not come to the front, so no input was sent", pid).With("pid", pid)
}

// click moves the pointer to (X, Y) and clicks Count times with Button.
func click(ctx context.Context, in observer.Input) error {
	down, up, button := uint32(eventLeftMouseDown), uint32(eventLeftMouseUp), uint32(mouseButtonLeft)
	switch in.Button {
	case 0, 1:
	case 2:
		down, up, button = eventOtherMouseDown, eventOtherMouseUp, mouseButtonCenter
	case 3:
		down, up, button = eventRightMouseDown, eventRightMouseUp, mouseButtonRight
	default:
		return observer.Errorf(observer.CodeBadRequest, "Use button 1 (left), 2 (middle) or 3 (right).", "no mouse button %d", in.Button)
	}
	at := cgPoint{in.X, in.Y}
	if err := post(cgEventCreateMouseEvent(0, eventMouseMoved, at, mouseButtonLeft)); err != nil {
		return err
	}
	for n := 1; n <= max(in.Count, 1); n++ {
		for _, typ := range []uint32{down, up} {
			if err := pause(ctx, inputPause); err != nil {
				return err
			}
			ev := cgEventCreateMouseEvent(0, typ, at, button)
			if ev != 0 {
				cgEventSetIntegerValueField(ev, fieldMouseClickState, int64(n)) // the n-th click of a double click
			}
			if err := post(ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// typeText types text one character at a time, each carried by a key event as its Unicode
// string; newlines and tabs are the Return and Tab keys.
func typeText(ctx context.Context, text string) error {
	for _, r := range text {
		var combo keyCombo
		switch r {
		case '\n', '\r':
			combo.code = namedKeys["return"]
		case '\t':
			combo.code = namedKeys["tab"]
		default:
			combo.text = string(r)
		}
		if err := pressKeys(ctx, []keyCombo{combo}); err != nil {
			return err
		}
	}
	return nil
}

// pressKeys presses each combination: its modifiers down, the key down and up, the modifiers up.
func pressKeys(ctx context.Context, combos []keyCombo) error {
	for _, c := range combos {
		var held uint64
		for _, m := range c.mods {
			held |= m.flag
			if err := key(ctx, m.code, true, held, ""); err != nil {
				return err
			}
		}
		for _, down := range []bool{true, false} {
			if err := key(ctx, c.code, down, c.flags(), c.text); err != nil {
				return err
			}
		}
		for i := len(c.mods) - 1; i >= 0; i-- {
			held &^= c.mods[i].flag
			if err := key(ctx, c.mods[i].code, false, held, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// key posts one key event with the modifier flags and, when text is set, the text it types.
func key(ctx context.Context, code uint16, down bool, flags uint64, text string) error {
	if err := pause(ctx, inputPause); err != nil {
		return err
	}
	ev := cgEventCreateKeyboardEvent(0, code, down)
	if ev != 0 {
		cgEventSetFlags(ev, flags)
		if text != "" {
			u := utf16.Encode([]rune(text))
			cgEventKeyboardSetUnicodeString(ev, uint64(len(u)), &u[0])
		}
	}
	return post(ev)
}

// post posts an event and releases it; a NULL event means there is no GUI session to post in.
func post(ev uintptr) error {
	if ev == 0 {
		return observer.Errorf(observer.CodeUnavailable, "Run axbus in the logged-in user's GUI session (not over ssh or as a daemon of another user).",
			"cannot create input events")
	}
	defer release(ev)
	cgEventPost(hidEventTap, ev)
	return nil
}

// pause waits d unless ctx ends first.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return errEnded(ctx, "the input")
	}
}
