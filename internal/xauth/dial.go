package xauth

import (
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Dial connects to the X server of a local display (":N", ":N.S" or "unix:N.S") and authenticates with the
// MIT-MAGIC-COOKIE-1 the Xauthority file authFile holds for it. With authFile "" it is xgb.NewConnDisplay, which
// takes the cookie from $XAUTHORITY, else ~/.Xauthority, and connects without one when there is none.
//
// xgb reads the authority from the process environment during the connection setup, and offers no other way:
// Dial gives xgb a connection that replaces the authorization of the setup request xgb writes with authFile's
// cookie. (xgb still reads $XAUTHORITY first, for a display-less entry; only one of a protocol other than
// MIT-MAGIC-COOKIE-1 there makes it give up before the request, with "unsupported auth protocol".)
func Dial(display, authFile string) (*xgb.Conn, error) {
	if authFile == "" {
		return xgb.NewConnDisplay(display)
	}
	number, screen, err := localDisplay(display)
	if err != nil {
		return nil, err
	}
	cookie, err := Cookie(authFile, number)
	if err != nil {
		return nil, err
	}
	nc, err := net.Dial("unix", "/tmp/.X11-unix/X"+number)
	if err != nil {
		return nil, fmt.Errorf("xauth: cannot connect to %s: %w", display, err)
	}
	c, err := xgb.NewConnNet(&cookieConn{Conn: nc, cookie: cookie})
	if err != nil {
		_ = nc.Close()
		return nil, fmt.Errorf("xauth: %s with the cookie of %s: %w", display, authFile, err)
	}
	if roots := len(xproto.Setup(c).Roots); screen >= roots {
		c.Close()
		return nil, fmt.Errorf("xauth: display %s has no screen %d (it has %d)", display, screen, roots)
	}
	c.DisplayNumber, _ = strconv.Atoi(number)
	c.DefaultScreen = screen
	return c, nil
}

// localDisplay splits a local display name into its display number and screen.
func localDisplay(display string) (number string, screen int, err error) {
	host, rest, ok := strings.Cut(display, ":")
	if !ok || (host != "" && host != "unix") {
		return "", 0, fmt.Errorf("xauth: %q is not a local X display (:N or :N.S): an Xauthority file is used for local displays only", display)
	}
	number, scr, hasScreen := strings.Cut(rest, ".")
	if n, err := strconv.Atoi(number); err != nil || n < 0 {
		return "", 0, fmt.Errorf("xauth: bad X display %q (want :N or :N.S)", display)
	}
	if hasScreen {
		if screen, err = strconv.Atoi(scr); err != nil || screen < 0 {
			return "", 0, fmt.Errorf("xauth: bad screen in X display %q (want :N or :N.S)", display)
		}
	}
	return number, screen, nil
}

// setupHead is the length of the fixed part of the X11 connection setup request: byte order, pad, protocol
// major and minor version, lengths of the authorization name and data, pad.
const setupHead = 12

// cookieConn is a client's connection to an X server whose first message, the connection setup request, goes out
// with cookie as its MIT-MAGIC-COOKIE-1 authorization, whatever authorization the client put in it; the rest
// passes through.
type cookieConn struct {
	net.Conn
	cookie []byte

	mu      sync.Mutex
	pending []byte // the setup request so far, until it is whole
	sent    bool   // the rewritten setup request went out
}

// Write collects the setup request until it is whole, sends it with the cookie, then passes writes through.
func (c *cookieConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sent {
		return c.Conn.Write(p)
	}
	c.pending = append(c.pending, p...)
	if len(c.pending) < setupHead {
		return len(p), nil
	}
	order, err := byteOrder(c.pending[0])
	if err != nil {
		return 0, err
	}
	whole := setupHead + pad4(int(order.Uint16(c.pending[6:]))) + pad4(int(order.Uint16(c.pending[8:])))
	if len(c.pending) < whole {
		return len(p), nil
	}
	out := setupRequest(c.pending[:setupHead], order, c.cookie)
	out = append(out, c.pending[whole:]...)
	c.pending, c.sent = nil, true
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// setupRequest is the setup request of head (byte order and protocol version kept) with cookie as its
// authorization.
func setupRequest(head []byte, order binary.ByteOrder, cookie []byte) []byte {
	out := make([]byte, setupHead, setupHead+pad4(len(MagicCookie))+pad4(len(cookie)))
	copy(out, head[:6]) // byte order, pad, major, minor
	order.PutUint16(out[6:], uint16(len(MagicCookie)))
	order.PutUint16(out[8:], uint16(len(cookie)))
	out = append(out, MagicCookie...)
	out = append(out, make([]byte, pad4(len(MagicCookie))-len(MagicCookie))...)
	out = append(out, cookie...)
	return append(out, make([]byte, pad4(len(cookie))-len(cookie))...)
}

// byteOrder reads the byte-order byte of a setup request: 'l' little-endian, 'B' big-endian.
func byteOrder(b byte) (binary.ByteOrder, error) {
	switch b {
	case 'l':
		return binary.LittleEndian, nil
	case 'B':
		return binary.BigEndian, nil
	}
	return nil, fmt.Errorf("xauth: the X client's first message is not a connection setup request (byte order %#x)", b)
}

// pad4 rounds n up to a multiple of 4, as the X protocol pads strings.
func pad4(n int) int { return (n + 3) &^ 3 }
