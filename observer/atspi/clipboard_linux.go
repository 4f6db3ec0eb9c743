//go:build linux

package atspi

import (
	"context"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/internal/xauth"
	"github.com/axbus/axbus/observer"
)

// The clipboard is the X CLIPBOARD selection (ICCCM 2). Writing it makes a window of the
// backend's own X connection its owner, which hands the text to every app that asks until
// another app takes the selection over (or the daemon ends: X keeps no copy). Reading asks the
// owner to convert it to UTF8_STRING into a property of that window.

// clipboardAnswer bounds the wait for the clipboard's owner to answer a read.
const clipboardAnswer = 2 * time.Second

// clipConn is the clipboard's X connection: its window owns the selection when we wrote it, and
// its event loop serves the requests of other apps.
type clipConn struct {
	c    *xgb.Conn
	win  xproto.Window
	atom map[string]xproto.Atom
	ops  chan func()     // run by the event loop, which alone touches the state below
	got  chan xgb.Event  // SelectionNotify and PropertyNotify, for the read in progress
	done chan struct{}   // the loop ended
	own  *ownedClipboard // nil unless our window owns CLIPBOARD
	// reading serialises reads: each waits for the answers to its own conversions.
	reading sync.Mutex
}

// ownedClipboard is text we put on the clipboard; taken is closed at the first request for it
// once armed (a paste under way).
type ownedClipboard struct {
	text         string
	taken        chan struct{}
	armed, given bool
}

// The atoms the clipboard uses.
var clipAtoms = []string{"CLIPBOARD", "TARGETS", "UTF8_STRING", "TEXT", "text/plain;charset=utf-8", "text/plain",
	"STRING", "TIMESTAMP", "MULTIPLE", "INCR", "AXBUS_CLIPBOARD", "SAVE_TARGETS"}

// clip returns the clipboard connection, opened on first use.
func (b *Backend) clip() (*clipConn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed()
	}
	if b.clipboard != nil {
		return b.clipboard, nil
	}
	if b.cfg.display == "" {
		return nil, observer.Errorf(observer.CodeUnavailable, "The clipboard needs an X11 display: run axbus in an X session (DISPLAY set).",
			"no X display: DISPLAY is not set")
	}
	c, err := xauth.Dial(b.cfg.display, b.cfg.xauthority)
	if err != nil {
		return nil, observer.Errorf(observer.CodeUnavailable, "Check DISPLAY and XAUTHORITY, and that the X server runs.",
			"cannot connect to the X display %s: %v", b.cfg.display, err).Wrap(err)
	}
	cc := &clipConn{c: c, atom: map[string]xproto.Atom{}, ops: make(chan func()), got: make(chan xgb.Event, 16), done: make(chan struct{})}
	for _, name := range clipAtoms {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			c.Close()
			return nil, observer.Errorf(observer.CodeUnavailable, "Check that the X server runs.", "interning %s: %v", name, err).Wrap(err)
		}
		cc.atom[name] = r.Atom
	}
	screen := xproto.Setup(c).DefaultScreen(c)
	if cc.win, err = xproto.NewWindowId(c); err == nil {
		err = xproto.CreateWindowChecked(c, 0, cc.win, screen.Root, -10, -10, 1, 1, 0, xproto.WindowClassInputOnly, 0,
			xproto.CwEventMask, []uint32{xproto.EventMaskPropertyChange}).Check()
	}
	if err != nil {
		c.Close()
		return nil, observer.Errorf(observer.CodeUnavailable, "Check that the X server runs.", "creating the clipboard window: %v", err).Wrap(err)
	}
	go cc.loop()
	b.clipboard = cc
	return cc, nil
}

// loop handles the connection's events and runs ops, until the connection closes.
func (cc *clipConn) loop() {
	defer close(cc.done)
	events := make(chan xgb.Event)
	go func() {
		defer close(events)
		for {
			ev, err := cc.c.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			if ev != nil {
				events <- ev
			}
		}
	}()
	for {
		select {
		case op := <-cc.ops:
			op()
		case ev, ok := <-events:
			if !ok {
				return
			}
			switch e := ev.(type) {
			case xproto.SelectionRequestEvent:
				cc.serve(e)
			case xproto.SelectionClearEvent:
				cc.own = nil // another app owns the clipboard now
			case xproto.SelectionNotifyEvent, xproto.PropertyNotifyEvent:
				select {
				case cc.got <- ev:
				default: // nobody reads: stale
				}
			}
		}
	}
}

// do runs op in the event loop and waits for it.
func (cc *clipConn) do(ctx context.Context, op func()) error {
	ran := make(chan struct{})
	select {
	case cc.ops <- func() { op(); close(ran) }:
	case <-cc.done:
		return errClosed()
	case <-ctx.Done():
		return observer.AsError(ctx.Err())
	}
	<-ran
	return nil
}

// serve answers an app's request for the text we own (ICCCM 2.2): the list of targets, or the
// text as UTF-8 (or Latin-1 for STRING), written to the property it names on its window.
func (cc *clipConn) serve(e xproto.SelectionRequestEvent) {
	reply := xproto.SelectionNotifyEvent{Time: e.Time, Requestor: e.Requestor, Selection: e.Selection, Target: e.Target, Property: xproto.AtomNone}
	prop := e.Property
	if prop == xproto.AtomNone {
		prop = e.Target // an obsolete client
	}
	a := cc.atom
	if own := cc.own; own != nil && e.Selection == a["CLIPBOARD"] && e.Owner == cc.win {
		switch e.Target {
		case a["TARGETS"]:
			targets := []xproto.Atom{a["TARGETS"], a["TIMESTAMP"], a["UTF8_STRING"], a["text/plain;charset=utf-8"], a["TEXT"], a["STRING"], a["text/plain"]}
			data := make([]byte, 4*len(targets))
			for i, t := range targets {
				xgb.Put32(data[4*i:], uint32(t))
			}
			xproto.ChangeProperty(cc.c, xproto.PropModeReplace, e.Requestor, prop, xproto.AtomAtom, 32, uint32(len(targets)), data)
			reply.Property = prop
		case a["TIMESTAMP"]:
			data := make([]byte, 4)
			xproto.ChangeProperty(cc.c, xproto.PropModeReplace, e.Requestor, prop, xproto.AtomInteger, 32, 1, data)
			reply.Property = prop
		case a["UTF8_STRING"], a["text/plain;charset=utf-8"], a["TEXT"], a["STRING"], a["text/plain"]:
			data, typ := []byte(own.text), a["UTF8_STRING"]
			if e.Target == a["STRING"] || e.Target == a["text/plain"] {
				data, typ = latin1(own.text), xproto.AtomString
			}
			xproto.ChangeProperty(cc.c, xproto.PropModeReplace, e.Requestor, prop, typ, 8, uint32(len(data)), data)
			reply.Property = prop
			if own.armed && !own.given {
				own.given = true
				close(own.taken)
			}
		}
	}
	xproto.SendEvent(cc.c, false, e.Requestor, xproto.EventMaskNoEvent, string(reply.Bytes()))
}

// latin1 is text as ISO 8859-1, a rune it lacks as "?".
func latin1(text string) []byte {
	out := make([]byte, 0, len(text))
	for _, r := range text {
		if r > 0xff {
			r = '?'
		}
		out = append(out, byte(r))
	}
	return out
}

// ReadClipboard reads the CLIPBOARD selection as text: ours from memory, another app's by asking
// it to convert it (the INCR protocol for large text).
func (b *Backend) ReadClipboard(ctx context.Context) (string, bool, error) {
	cc, err := b.clip()
	if err != nil {
		return "", false, err
	}
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
		return "", false, observer.Errorf(observer.CodeNotSupported,
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
func (cc *clipConn) convert(ctx context.Context, target xproto.Atom) (converted, error) {
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
			return converted{}, observer.Errorf(observer.CodeNotSupported, "The app that holds the clipboard refuses to give it as text; copy the text again.",
				"the clipboard's owner refused the conversion")
		}
		break
	}
	r, err := xproto.GetProperty(cc.c, true, cc.win, prop, xproto.GetPropertyTypeAny, 0, observer.MaxClipboardText/4+1).Reply()
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
		r, err := xproto.GetProperty(cc.c, true, cc.win, prop, xproto.GetPropertyTypeAny, 0, observer.MaxClipboardText/4+1).Reply()
		if err != nil {
			return converted{}, clipFailed("reading the clipboard", err)
		}
		if len(r.Value) == 0 {
			return out, nil
		}
		out.typ, out.data = r.Type, append(out.data, r.Value...)
		if len(out.data) > observer.MaxClipboardText {
			return converted{}, tooLong()
		}
	}
}

// drain drops events of an earlier read.
func (cc *clipConn) drain() {
	for {
		select {
		case <-cc.got:
		default:
			return
		}
	}
}

func (cc *clipConn) next(ctx context.Context) (xgb.Event, error) {
	select {
	case ev := <-cc.got:
		return ev, nil
	case <-cc.done:
		return nil, errClosed()
	case <-ctx.Done():
		return nil, observer.Errorf(observer.CodeTimeout, "The app that holds the clipboard does not answer; copy the text again.",
			"the clipboard's owner did not answer within %v", clipboardAnswer)
	}
}

func tooLong() error {
	return observer.Errorf(observer.CodeNotSupported, "Copy at most 200 KiB of text.", "the clipboard holds more than %d bytes of text", observer.MaxClipboardText)
}

func clipFailed(what string, err error) error {
	return observer.Errorf(observer.CodeUnavailable, "Check that the X server runs; retry.", "%s: %v", what, err).Wrap(err)
}

// WriteClipboard makes our window the owner of CLIPBOARD with text (or, without has, leaves the
// clipboard without owner: empty).
func (b *Backend) WriteClipboard(ctx context.Context, text string, has bool) (func() <-chan struct{}, error) {
	if err := observer.CheckClipboardText(text); err != nil {
		return nil, err
	}
	cc, err := b.clip()
	if err != nil {
		return nil, err
	}
	own := &ownedClipboard{text: text, taken: make(chan struct{})}
	owner := cc.win
	if !has {
		owner, own = xproto.WindowNone, nil
	}
	var setErr error
	if err := cc.do(ctx, func() {
		cc.own = own
		setErr = xproto.SetSelectionOwnerChecked(cc.c, owner, cc.atom["CLIPBOARD"], xproto.TimeCurrentTime).Check()
	}); err != nil {
		return nil, err
	}
	if setErr != nil {
		return nil, clipFailed("taking the clipboard", setErr)
	}
	if now, err := xproto.GetSelectionOwner(cc.c, cc.atom["CLIPBOARD"]).Reply(); err != nil || now.Owner != owner {
		return nil, observer.Errorf(observer.CodeActionFailed, "Retry: another app took the clipboard at the same moment.", "the clipboard did not take the text")
	}
	return func() <-chan struct{} {
		if own == nil {
			done := make(chan struct{})
			close(done)
			return done
		}
		_ = cc.do(context.WithoutCancel(ctx), func() { own.armed = true })
		return own.taken
	}, nil
}

// close ends the clipboard's connection (what we own is lost, as X keeps no copy).
func (cc *clipConn) close() {
	cc.c.Close()
	select {
	case <-cc.done:
	case <-time.After(2 * time.Second):
	}
}
