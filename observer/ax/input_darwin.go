package ax

import (
	"context"
	"time"
	"unicode/utf16"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// Physical input through CGEvent, posted at the HID level in global coordinates (the ones AX
// reports). The input is resolved first (inputplan.go), so a bad request sends nothing and
// brings nothing forward; then its app is brought to the front (front.go) and input is refused
// when it does not come: keys typed into whatever app is in front could do harm.

const (
	fieldMouseClickState = 1 // kCGMouseEventClickState
	hidEventTap          = 0 // kCGHIDEventTap

	// inputPause separates synthetic events, so that the app sees them as separate.
	inputPause = 5 * time.Millisecond
)

// Input synthesises a pointer click, typed text or key combinations in app in.PID.
func (b *Backend) Input(ctx context.Context, in observer.Input) error {
	if err := b.checkOpen(); err != nil {
		return err
	}
	plan, err := planInput(in)
	if err != nil || plan.empty() {
		return err
	}
	if in.PID > 0 {
		if err := b.raiser().raise(ctx, in.PID); err != nil {
			return err
		}
	}
	if plan.click != nil {
		return click(ctx, *plan.click)
	}
	return pressKeys(ctx, plan.combos)
}

// click moves the pointer to the point and clicks there.
func click(ctx context.Context, c clickPlan) error {
	at := cgPoint{c.x, c.y}
	if err := post(cgEventCreateMouseEvent(0, eventMouseMoved, at, mouseButtonLeft)); err != nil {
		return err
	}
	for n := 1; n <= c.count; n++ {
		for _, typ := range []uint32{c.down, c.up} {
			if err := pause(ctx, inputPause); err != nil {
				return err
			}
			ev := cgEventCreateMouseEvent(0, typ, at, c.button)
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
		return model.Errorf(model.CodeUnavailable, "Run axbus in the logged-in user's GUI session (not over ssh or as a daemon of another user).",
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
