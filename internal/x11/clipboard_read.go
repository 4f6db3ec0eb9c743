package x11

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Read reads the CLIPBOARD selection as text: ours from memory, another app's by asking it to
// convert it (the INCR protocol for large text); false when nobody owns the clipboard.
func (cc *Clipboard) Read(ctx context.Context) (string, bool, error) {
	var mine *ownedClipboard
	if err := cc.do(ctx, func() { mine = cc.own }); err != nil {
		return "", false, err
	}
	if mine != nil {
		return mine.text, true, nil
	}
	owner, err := xproto.GetSelectionOwner(cc.c, cc.atom["CLIPBOARD"]).Reply()
	if err != nil {
		return "", false, clipFailed("reading the clipboard's owner", err)
	}
	if owner.Owner == xproto.WindowNone {
		return "", false, nil
	}
	cc.reading.Lock()
	defer cc.reading.Unlock()
	ctx, cancel := context.WithTimeout(ctx, clipboardAnswer)
	defer cancel()
	targets, err := cc.convert(ctx, cc.atom["TARGETS"])
	if err != nil {
		return "", false, err
	}
	target := xproto.Atom(0)
	for _, want := range []string{"UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT"} {
		for i := 0; i+4 <= len(targets.data) && target == 0; i += 4 {
			if xproto.Atom(xgb.Get32(targets.data[i:])) == cc.atom[want] {
				target = cc.atom[want]
			}
		}
	}
	if target == 0 && len(targets.data) > 0 {
		return "", false, model.Errorf(model.CodeNotSupported,
			"The clipboard holds something other than text (an image, files); axbus reads and writes text only.",
			"the clipboard offers no text")
	}
	if target == 0 {
		target = cc.atom["UTF8_STRING"] // an owner that does not list its targets
	}
	got, err := cc.convert(ctx, target)
	if err != nil {
		return "", false, err
	}
	if got.typ == xproto.AtomString {
		runes := make([]rune, len(got.data))
		for i, c := range got.data {
			runes[i] = rune(c)
		}
		return string(runes), true, nil
	}
	return string(got.data), true, nil
}

// converted is a selection's value as its owner wrote it.
type converted struct {
	typ  xproto.Atom
	data []byte
}

// convert asks the owner for the selection as target and reads the answer from our window's
// property, in increments when the owner uses INCR.
func (cc *Clipboard) convert(ctx context.Context, target xproto.Atom) (converted, error) {
	prop := cc.atom["AXBUS_CLIPBOARD"]
	cc.drain()
	xproto.ConvertSelection(cc.c, cc.win, cc.atom["CLIPBOARD"], target, prop, xproto.TimeCurrentTime)
	for {
		ev, err := cc.next(ctx)
		if err != nil {
			return converted{}, err
		}
		n, ok := ev.(xproto.SelectionNotifyEvent)
		if !ok || n.Target != target {
			continue
		}
		if n.Property == xproto.AtomNone {
			return converted{}, model.Errorf(model.CodeNotSupported, "The app that holds the clipboard refuses to give it as text; copy the text again.",
				"the clipboard's owner refused the conversion")
		}
		break
	}
	r, err := xproto.GetProperty(cc.c, true, cc.win, prop, xproto.GetPropertyTypeAny, 0, model.MaxClipboardText/4+1).Reply()
	if err != nil {
		return converted{}, clipFailed("reading the clipboard", err)
	}
	if r.Type != cc.atom["INCR"] {
		if r.BytesAfter > 0 {
			return converted{}, tooLong()
		}
		return converted{typ: r.Type, data: r.Value}, nil
	}
	var out converted // INCR: each chunk a new value of the property, the end an empty one
	for {
		ev, err := cc.next(ctx)
		if err != nil {
			return converted{}, err
		}
		if p, ok := ev.(xproto.PropertyNotifyEvent); !ok || p.Atom != prop || p.State != xproto.PropertyNewValue {
			continue
		}
		r, err := xproto.GetProperty(cc.c, true, cc.win, prop, xproto.GetPropertyTypeAny, 0, model.MaxClipboardText/4+1).Reply()
		if err != nil {
			return converted{}, clipFailed("reading the clipboard", err)
		}
		if len(r.Value) == 0 {
			return out, nil
		}
		out.typ, out.data = r.Type, append(out.data, r.Value...)
		if len(out.data) > model.MaxClipboardText {
			return converted{}, tooLong()
		}
	}
}

// drain drops events of an earlier read.
func (cc *Clipboard) drain() {
	for {
		select {
		case <-cc.got:
		default:
			return
		}
	}
}

func (cc *Clipboard) next(ctx context.Context) (xgb.Event, error) {
	select {
	case ev := <-cc.got:
		return ev, nil
	case <-cc.done:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, model.Errorf(model.CodeTimeout, "The app that holds the clipboard does not answer; copy the text again.",
			"the clipboard's owner did not answer within %v", clipboardAnswer)
	}
}

func tooLong() error {
	return model.Errorf(model.CodeNotSupported, "Copy at most 200 KiB of text.", "the clipboard holds more than %d bytes of text", model.MaxClipboardText)
}

func clipFailed(what string, err error) error {
	return model.Errorf(model.CodeUnavailable, "Check that the X server runs; retry.", "%s: %v", what, err).Wrap(err)
}
