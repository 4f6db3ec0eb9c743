package x11

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/axbus/axbus/model"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/record"
	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/internal/xauth"
)

// What a person does with the mouse and keyboard, read through the X RECORD extension: a control
// connection (xgb) creates a context that intercepts the device events of every client, and a data
// connection enables it and reads the intercepted events. EnableContext is answered by a stream of
// replies that all carry its sequence number; xgb hands a cookie one reply only (the next ones find
// no cookie and are lost), so the data connection is a plain socket that speaks just enough of the
// protocol: the connection setup, EnableContext, and its replies.

// InputEvent is one thing a person did: a button pressed at a point of the screen, the wheel
// turned, or a key pressed. Releases, pointer motion and the presses of modifier keys alone are
// not reported (a modifier shows in Mods of the key or button it is held for).
type InputEvent struct {
	Time       time.Time // when the recorder received it
	ServerTime uint32    // the X server's timestamp, in milliseconds
	Kind       string    // "button", "wheel" or "key"
	Button     byte      // button: 1 left, 2 middle, 3 right, 8/9 back/forward; wheel: 4 up, 5 down, 6 left, 7 right
	X, Y       int16     // root coordinates of the pointer at the event
	Keycode    byte      // key: the keycode pressed
	Keysym     uint32    // key: the keysym of the keycode at the shift level held
	Text       string    // key: the character it types; "" for a non-printing key or with ctrl, alt or super
	Name       string    // key: the character itself for a printing key, else X's keysym name ("Return", "F5")
	Mods       []string  // modifiers held: "shift", "ctrl", "alt", "super"
}

// Recorder streams the InputEvents of every client of the X server until Close.
type Recorder struct {
	ctl     *xgb.Conn
	data    net.Conn
	ctx     record.Context
	events  chan InputEvent
	done    chan struct{}
	dropped atomic.Int64
	once    sync.Once

	mu      sync.Mutex // guards the keyboard map, re-read for a keycode it lacks
	minKey  xproto.Keycode
	perCode int
	syms    []xproto.Keysym
}

// recordBuffer is how many events wait for a slow reader before the next ones are dropped.
const recordBuffer = 256

// The core event types of the device events recorded (X11/X.h).
const (
	evKeyPress    = 2
	evButtonPress = 4
)

// The categories of RECORD's EnableContext replies.
const (
	catFromServer  = 0
	catStartOfData = 4
	catEndOfData   = 5
)

// noRecord is the error of a server without RECORD.
func noRecord(err error) *model.Error {
	return model.Errorf(model.CodeNotSupported,
		"Start the X server with the RECORD extension (Xorg and Xvfb: +extension RECORD; it is on by default).",
		"the X server has no RECORD extension: %v", err).Wrap(err)
}

// recordFailed is the error of a RECORD request the server refused.
func recordFailed(what string, err error) *model.Error {
	return model.Errorf(model.CodeActionFailed, "Check that the X server is alive and allows RECORD; retry.",
		"%s: %v", what, err).Wrap(err)
}

// OpenRecorder connects twice to display with the cookie xauthority holds for it (as Dial) and
// starts recording. Input made after it returns is in Events. Only local displays (":N") can be
// recorded. A failure to connect is returned as it is; what X answers is an *model.Error.
func OpenRecorder(display, xauthority string) (*Recorder, error) {
	silenceXGB()
	ctl, err := xauth.Dial(display, xauthority)
	if err != nil {
		return nil, err
	}
	r := &Recorder{ctl: ctl, events: make(chan InputEvent, recordBuffer), done: make(chan struct{})}
	if err := r.open(display, xauthority); err != nil {
		if r.data != nil {
			_ = r.data.Close()
		}
		ctl.Close()
		return nil, err
	}
	go r.read()
	return r, nil
}

// open reads the keyboard map, creates the context and enables it on a data connection.
func (r *Recorder) open(display, xauthority string) error {
	if err := record.Init(r.ctl); err != nil {
		return noRecord(err)
	}
	if _, err := record.QueryVersion(r.ctl, 1, 13).Reply(); err != nil {
		return noRecord(err)
	}
	setup := xproto.Setup(r.ctl)
	r.minKey = setup.MinKeycode
	km, err := xproto.GetKeyboardMapping(r.ctl, setup.MinKeycode, byte(int(setup.MaxKeycode)-int(setup.MinKeycode)+1)).Reply()
	if err != nil {
		return recordFailed("reading the keyboard map", err)
	}
	r.perCode, r.syms = int(km.KeysymsPerKeycode), km.Keysyms
	if r.ctx, err = record.NewContextId(r.ctl); err != nil {
		return recordFailed("allocating a RECORD context", err)
	}
	ranges := []record.Range{{DeviceEvents: record.Range8{First: evKeyPress, Last: evButtonPress}}}
	if err := record.CreateContextChecked(r.ctl, r.ctx, 0, 1, 1, []record.ClientSpec{record.CsAllClients}, ranges).Check(); err != nil {
		return recordFailed("creating the RECORD context", err)
	}
	r.ctl.ExtLock.RLock()
	opcode := r.ctl.Extensions["RECORD"]
	r.ctl.ExtLock.RUnlock()
	if r.data, err = dialData(display, xauthority, r.ctl.DisplayNumber); err != nil {
		return err
	}
	req := make([]byte, 8)
	req[0], req[1] = opcode, 5 // RecordEnableContext
	binary.LittleEndian.PutUint16(req[2:], 2)
	binary.LittleEndian.PutUint32(req[4:], uint32(r.ctx))
	_ = r.data.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.data.Write(req); err != nil {
		return fmt.Errorf("x11: recording %s: %w", display, err)
	}
	// The first reply says recording has started: input after it is intercepted.
	category, _, err := readReply(r.data)
	var xerr *model.Error
	if errors.As(err, &xerr) {
		return err
	} else if err != nil {
		return recordFailed("waiting for recording to start", err)
	}
	if category != catStartOfData {
		return recordFailed("enabling the RECORD context", fmt.Errorf("first reply of category %d, want StartOfData", category))
	}
	_ = r.data.SetDeadline(time.Time{})
	return nil
}

// Events is the stream of input, closed after Close. It holds up to 256 events; the ones that
// come while it is full are dropped and counted by Dropped.
func (r *Recorder) Events() <-chan InputEvent { return r.events }

// Dropped is how many events were lost because the reader of Events lagged.
func (r *Recorder) Dropped() int64 { return r.dropped.Load() }

// Close stops recording, frees the context and closes both connections.
func (r *Recorder) Close() {
	r.once.Do(func() {
		// DisableContext ends the replies with EndOfData; the socket is closed anyway after a while.
		_ = record.DisableContextChecked(r.ctl, r.ctx).Check()
		select {
		case <-r.done:
		case <-time.After(time.Second):
		}
		_ = r.data.Close()
		<-r.done
		_ = record.FreeContextChecked(r.ctl, r.ctx).Check()
		r.ctl.Close()
	})
}

// read turns the replies of the data connection into events until EndOfData or a closed socket.
func (r *Recorder) read() {
	defer close(r.done)
	defer close(r.events)
	for {
		category, data, err := readReply(r.data)
		if err != nil || category == catEndOfData {
			return
		}
		if category != catFromServer {
			continue
		}
		now := time.Now()
		for ; len(data) >= 32; data = data[32:] {
			ev, ok := r.event(data[:32], now)
			if !ok {
				continue
			}
			select {
			case r.events <- ev:
			default:
				r.dropped.Add(1)
			}
		}
	}
}

// readReply reads the next reply of EnableContext: its category and its data. An X error is an
// *model.Error; events, which the data connection is not sent, are skipped.
func readReply(c net.Conn) (byte, []byte, error) {
	head := make([]byte, 32)
	for {
		if _, err := io.ReadFull(c, head); err != nil {
			return 0, nil, err
		}
		switch head[0] {
		case 0:
			return 0, nil, recordFailed("enabling the RECORD context", fmt.Errorf("the X server refused it (error %d)", head[1]))
		case 1:
			data := make([]byte, 4*int(binary.LittleEndian.Uint32(head[4:])))
			if _, err := io.ReadFull(c, data); err != nil {
				return 0, nil, err
			}
			return head[1], data, nil
		}
	}
}

// event decodes one intercepted core device event (the xEvent of X11/Xproto.h); ok is false for
// releases, modifier keys alone and what is not a press.
func (r *Recorder) event(b []byte, now time.Time) (InputEvent, bool) {
	le := binary.LittleEndian
	state := le.Uint16(b[28:])
	ev := InputEvent{
		Time: now, ServerTime: le.Uint32(b[4:]),
		X: int16(le.Uint16(b[20:])), Y: int16(le.Uint16(b[22:])), Mods: mods(state),
	}
	switch b[0] & 0x7f {
	case evButtonPress:
		ev.Kind, ev.Button = "button", b[1]
		if b[1] >= 4 && b[1] <= 7 {
			ev.Kind = "wheel"
		}
		return ev, true
	case evKeyPress:
		ev.Kind, ev.Keycode = "key", b[1]
		ev.Keysym = r.keysym(xproto.Keycode(b[1]), state)
		if isModifierKey(ev.Keysym) {
			return ev, false
		}
		ev.Name = keysymName(ev.Keysym)
		if c := keysymRune(ev.Keysym); c != 0 && state&(4|8|64) == 0 && unicode.IsPrint(c) {
			ev.Text = string(c)
		}
		return ev, true
	}
	return ev, false
}

// mods names the modifiers of an event's state: Shift 1, Control 4, Mod1 (alt) 8, Mod4 (super) 64.
func mods(state uint16) []string {
	var out []string
	for _, m := range []struct {
		bit  uint16
		name string
	}{{1, "shift"}, {4, "ctrl"}, {8, "alt"}, {64, "super"}} {
		if state&m.bit != 0 {
			out = append(out, m.name)
		}
	}
	return out
}

// keysym is the keysym of code at the shift level of state (shift held, or caps lock on a
// letter). A keycode the map read at open lacks (bound since, as Tap binds spare keycodes) is
// read again.
func (r *Recorder) keysym(code xproto.Keycode, state uint16) uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	at := func(level int) uint32 {
		i := (int(code)-int(r.minKey))*r.perCode + level
		if code < r.minKey || level >= r.perCode || i >= len(r.syms) {
			return 0
		}
		return uint32(r.syms[i])
	}
	if at(0) == 0 && at(1) == 0 && code >= r.minKey {
		if km, err := xproto.GetKeyboardMapping(r.ctl, code, 1).Reply(); err == nil && int(km.KeysymsPerKeycode) == r.perCode {
			copy(r.syms[(int(code)-int(r.minKey))*r.perCode:], km.Keysyms)
		}
	}
	low, up := at(0), at(1)
	if up == 0 {
		up = low
		if c := keysymRune(low); c != 0 && unicode.IsLower(c) && c < 0x100 {
			up = uint32(unicode.ToUpper(c))
		}
	}
	shift := state&1 != 0
	if state&2 != 0 && unicode.IsLetter(keysymRune(low)) {
		shift = !shift
	}
	if shift {
		return up
	}
	return low
}

// isModifierKey reports whether sym is a modifier or lock key (Shift_L ... Hyper_R,
// ISO_Level3_Shift), reported only as Mods of the keys it is held for.
func isModifierKey(sym uint32) bool {
	return sym >= 0xffe1 && sym <= 0xffee || sym == 0xfe03 || sym == 0xff7e || sym == 0xff7f
}

// keysymRune is the character sym types (Latin-1, or a Unicode keysym), 0 for none.
func keysymRune(sym uint32) rune {
	switch {
	case sym >= 0x20 && sym <= 0x7e, sym >= 0xa0 && sym <= 0xff:
		return rune(sym)
	case sym >= 0x01000100 && sym <= 0x0110ffff:
		return rune(sym - 0x01000000)
	}
	return 0
}

// keyNames are X's names (X11/keysymdef.h) of the non-printing keys a flow uses.
var keyNames = map[uint32]string{
	0x20: "space", 0xff08: "BackSpace", 0xff09: "Tab", 0xff0d: "Return", 0xff13: "Pause",
	0xff14: "Scroll_Lock", 0xff1b: "Escape", 0xff50: "Home", 0xff51: "Left", 0xff52: "Up",
	0xff53: "Right", 0xff54: "Down", 0xff55: "Prior", 0xff56: "Next", 0xff57: "End",
	0xff61: "Print", 0xff63: "Insert", 0xff67: "Menu", 0xff8d: "KP_Enter", 0xffff: "Delete",
	0xfe20: "ISO_Left_Tab",
}

// keysymName names sym: X's name of a non-printing key, the character of a printing one, else
// "0x" and its hex value.
func keysymName(sym uint32) string {
	if n, ok := keyNames[sym]; ok {
		return n
	}
	if sym >= 0xffbe && sym <= 0xffd5 { // F1 ... F24
		return "F" + strconv.Itoa(int(sym-0xffbe+1))
	}
	if c := keysymRune(sym); c != 0 && unicode.IsPrint(c) {
		return string(c)
	}
	return fmt.Sprintf("0x%x", sym)
}

// dialData opens the data connection to the local display number: the X connection setup by
// hand, with the MIT-MAGIC-COOKIE-1 that xauthority (else $XAUTHORITY, else ~/.Xauthority) holds
// for it, or none when there is no such file and none was named.
func dialData(display, xauthority string, number int) (net.Conn, error) {
	if host, _, _ := cutDisplay(display); host != "" && host != "unix" {
		return nil, model.Errorf(model.CodeNotSupported, "Record the local display (:N).",
			"recording %s: only a local X display can be recorded", display)
	}
	num := strconv.Itoa(number)
	var cookie []byte
	path, named := xauthority, xauthority != ""
	if !named {
		if path = os.Getenv("XAUTHORITY"); path == "" {
			home, _ := os.UserHomeDir()
			path = filepath.Join(home, ".Xauthority")
		}
	}
	cookie, err := xauth.Cookie(path, num)
	if err != nil && named {
		return nil, err
	}
	c, err := net.Dial("unix", "/tmp/.X11-unix/X"+num)
	if err != nil {
		return nil, fmt.Errorf("x11: cannot connect to %s for recording: %w", display, err)
	}
	if err := setupData(c, cookie); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("x11: recording %s: %w", display, err)
	}
	return c, nil
}

// cutDisplay splits a display name "host:N.S" at its colon.
func cutDisplay(display string) (host, rest string, ok bool) {
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	for i := len(display) - 1; i >= 0; i-- {
		if display[i] == ':' {
			return display[:i], display[i+1:], true
		}
	}
	return "", display, false
}

// setupData sends the connection setup request (little-endian, X11.0) with cookie, if any, and
// reads the server's answer, skipping the screens it describes.
func setupData(c net.Conn, cookie []byte) error {
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	defer func() { _ = c.SetDeadline(time.Time{}) }()
	pad := func(n int) int { return (n + 3) &^ 3 }
	name := ""
	if cookie != nil {
		name = xauth.MagicCookie
	}
	req := make([]byte, 12+pad(len(name))+pad(len(cookie)))
	req[0] = 'l'
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint16(req[6:], uint16(len(name)))
	binary.LittleEndian.PutUint16(req[8:], uint16(len(cookie)))
	copy(req[12:], name)
	copy(req[12+pad(len(name)):], cookie)
	if _, err := c.Write(req); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(c, head); err != nil {
		return err
	}
	rest := make([]byte, 4*int(binary.LittleEndian.Uint16(head[6:])))
	if _, err := io.ReadFull(c, rest); err != nil {
		return err
	}
	if head[0] != 1 {
		reason := rest[:min(int(head[1]), len(rest))]
		return errors.New("the X server refused the connection: " + string(reason))
	}
	return nil
}
