package x11

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/internal/xauth"
)

// The clipboard is the X CLIPBOARD selection (ICCCM 2). Writing it makes a window of the
// Clipboard's own X connection its owner, which hands the text to every app that asks until
// another app takes the selection over (or the daemon ends: X keeps no copy). Reading asks the
// owner to convert it to UTF8_STRING into a property of that window.

// clipboardAnswer bounds the wait for the clipboard's owner to answer a read.
const clipboardAnswer = 2 * time.Second

// ErrClosed is the error of a Clipboard used after Close.
var ErrClosed = errors.New("the clipboard's X connection is closed")

// Clipboard is the clipboard's X connection: its window owns the selection when we wrote it,
// and its event loop serves the requests of other apps.
type Clipboard struct {
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

// OpenClipboard connects to display (with xauthority's cookie, as Dial) for the clipboard alone
// and starts its event loop. A failure to connect is xauth.Dial's error; the others are
// *model.Error.
func OpenClipboard(display, xauthority string) (*Clipboard, error) {
	silenceXGB()
	c, err := xauth.Dial(display, xauthority)
	if err != nil {
		return nil, err
	}
	cc := &Clipboard{c: c, atom: map[string]xproto.Atom{}, ops: make(chan func()), got: make(chan xgb.Event, 16), done: make(chan struct{})}
	for _, name := range clipAtoms {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			c.Close()
			return nil, model.Errorf(model.CodeUnavailable, "Check that the X server runs.", "interning %s: %v", name, err).Wrap(err)
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
		return nil, model.Errorf(model.CodeUnavailable, "Check that the X server runs.", "creating the clipboard window: %v", err).Wrap(err)
	}
	go cc.loop()
	return cc, nil
}

// loop handles the connection's events and runs ops, until the connection closes.
func (cc *Clipboard) loop() {
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
func (cc *Clipboard) do(ctx context.Context, op func()) error {
	ran := make(chan struct{})
	select {
	case cc.ops <- func() { op(); close(ran) }:
	case <-cc.done:
		return ErrClosed
	case <-ctx.Done():
		return model.AsError(ctx.Err())
	}
	<-ran
	return nil
}

// serve answers an app's request for the text we own (ICCCM 2.2): the list of targets, or the
// text as UTF-8 (or Latin-1 for STRING), written to the property it names on its window.
func (cc *Clipboard) serve(e xproto.SelectionRequestEvent) {
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

// Write makes our window the owner of CLIPBOARD with text (or, without has, leaves the clipboard
// without owner: empty). The function it returns, called once the paste is under way, tells
// when the first app has taken the text.
func (cc *Clipboard) Write(ctx context.Context, text string, has bool) (func() <-chan struct{}, error) {
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
		return nil, model.Errorf(model.CodeActionFailed, "Retry: another app took the clipboard at the same moment.", "the clipboard did not take the text")
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

// Close ends the clipboard's connection (what we own is lost, as X keeps no copy).
func (cc *Clipboard) Close() {
	cc.c.Close()
	select {
	case <-cc.done:
	case <-time.After(2 * time.Second):
	}
}
