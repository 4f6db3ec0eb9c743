//go:build linux

package atspi

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/internal/dbuswire"
)

// peerConn is a peer connection to one app, speaking just what a reader needs: method calls out,
// their replies in. Calls queue in a write buffer that the phase sending them flushes once (one
// write for a batch, not one per call), replies are matched by serial, and a call's context
// ends it without a goroutine of its own.
type peerConn struct {
	raw net.Conn
	r   *bufio.Reader

	wmu     sync.Mutex // orders writes: serials go out in the order they are taken
	w       *bufio.Writer
	serial  uint32
	scratch []byte

	mu      sync.Mutex
	pending map[uint32]*peerCall
	err     error // why the connection ended; once set, every call fails with it
}

type peerCall struct {
	call  *dbus.Call
	stop  func() bool // ends the watch on the call's context
	group *callGroup
}

// peerWriteBuffer is the write buffer: a batch larger than this reaches the app in parts, so
// the app starts answering before the last call is queued.
const peerWriteBuffer = 32 << 10

// dialPeerConn connects to a unix: D-Bus address and authenticates (EXTERNAL, as the uid).
// Writes have a deadline of writeTimeout: an app that stops reading fails a write instead of
// blocking it.
func dialPeerConn(ctx context.Context, addr string, writeTimeout time.Duration) (*peerConn, error) {
	path, ok := socketPath(addr)
	if !ok {
		return nil, &net.AddrError{Err: "not a unix path", Addr: addr}
	}
	var d net.Dialer
	raw, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	pc := &peerConn{raw: raw, r: bufio.NewReaderSize(raw, readBuffer), pending: map[uint32]*peerCall{}}
	pc.w = bufio.NewWriterSize(deadlineWriter{raw, writeTimeout}, peerWriteBuffer)
	deadline := time.Now().Add(writeTimeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	if err := pc.auth(deadline); err != nil {
		_ = raw.Close()
		return nil, err
	}
	go pc.readLoop()
	return pc, nil
}

// deadlineWriter writes with a deadline of timeout from the write's start.
type deadlineWriter struct {
	conn    net.Conn
	timeout time.Duration
}

func (w deadlineWriter) Write(p []byte) (int, error) {
	_ = w.conn.SetWriteDeadline(time.Now().Add(w.timeout))
	return w.conn.Write(p)
}

// auth runs the EXTERNAL authentication; a peer that does not answer by deadline fails it.
func (pc *peerConn) auth(deadline time.Time) error {
	_ = pc.raw.SetDeadline(deadline)
	defer func() { _ = pc.raw.SetDeadline(time.Time{}) }()
	uid := hex.EncodeToString([]byte(strconv.Itoa(os.Getuid())))
	if _, err := pc.raw.Write([]byte("\x00AUTH EXTERNAL " + uid + "\r\n")); err != nil {
		return err
	}
	line, err := pc.r.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("peer authentication: %w", err)
	}
	if !strings.HasPrefix(string(line), "OK ") {
		return fmt.Errorf("peer authentication refused: %q", strings.TrimSpace(string(line)))
	}
	_, err = pc.raw.Write([]byte("BEGIN\r\n"))
	return err
}

// send queues a call of method on path; flush sends it. Its Done channel receives once: with
// the reply, the error reply, the connection's end or ctx's; group, when not nil, counts it.
func (pc *peerConn) send(ctx context.Context, group *callGroup, bus, path, method string, args []any) *dbus.Call {
	call := &dbus.Call{Destination: bus, Path: dbus.ObjectPath(path), Method: method, Args: args, Done: make(chan *dbus.Call, 1)}
	if err := ctx.Err(); err != nil {
		return finished(call, err)
	}
	pc.wmu.Lock()
	defer pc.wmu.Unlock()
	pc.serial++
	if pc.serial == 0 { // 0 is not a serial
		pc.serial = 1
	}
	serial := pc.serial
	msg, err := dbuswire.AppendMethodCall(pc.scratch[:0], serial, path, method, args)
	pc.scratch = msg[:0]
	if err != nil {
		return finished(call, err)
	}
	p := &peerCall{call: call, group: group}
	pc.mu.Lock()
	if pc.err != nil {
		err := pc.err
		pc.mu.Unlock()
		return finished(call, err)
	}
	group.add()
	pc.pending[serial] = p
	pc.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { pc.end(serial, nil, ctx.Err()) })
	pc.mu.Lock()
	if pc.pending[serial] == p {
		p.stop = stop
	} else { // already answered or failed
		stop()
	}
	pc.mu.Unlock()
	if _, err := pc.w.Write(msg); err != nil {
		pc.fail(err)
	}
	return call
}

// flush writes what send queued.
func (pc *peerConn) flush() {
	pc.wmu.Lock()
	err := pc.w.Flush()
	pc.wmu.Unlock()
	if err != nil {
		pc.fail(err)
	}
}

func finished(call *dbus.Call, err error) *dbus.Call {
	call.Err = err
	call.Done <- call
	return call
}

// end completes the pending call serial with body or err, unless it is complete already.
func (pc *peerConn) end(serial uint32, body []any, err error) {
	pc.mu.Lock()
	p := pc.pending[serial]
	delete(pc.pending, serial)
	pc.mu.Unlock()
	if p == nil {
		return
	}
	if p.stop != nil {
		p.stop()
	}
	p.call.Body, p.call.Err = body, err
	p.call.Done <- p.call
	p.group.answered()
}

// fail ends the connection: every pending call and every later one fails with err. A failed
// write leaves a message half sent, so the socket is closed too.
func (pc *peerConn) fail(err error) {
	pc.mu.Lock()
	if pc.err == nil {
		pc.err = err
	}
	pending := pc.pending
	pc.pending = map[uint32]*peerCall{}
	pc.mu.Unlock()
	_ = pc.raw.Close()
	for serial := range pending {
		p := pending[serial]
		if p.stop != nil {
			p.stop()
		}
		p.call.Err = err
		p.call.Done <- p.call
		p.group.answered()
	}
}

// close ends the connection; its pending calls fail with net.ErrClosed, and a write blocked on
// an app that stopped reading ends at once.
func (pc *peerConn) close() { pc.fail(fmt.Errorf("peer connection: %w", net.ErrClosed)) }

// readLoop reads replies until the connection ends. Anything but a reply (an app's signals
// also come this way) is skipped undecoded.
func (pc *peerConn) readLoop() {
	var buf []byte
	for {
		m, err := dbuswire.ReadMessage(pc.r, &buf)
		if err != nil {
			if !errors.Is(err, dbuswire.ErrFormat) {
				err = fmt.Errorf("%w: %w", dbus.ErrClosed, err) // the app closed it, or we did
			}
			pc.fail(err)
			return
		}
		if m.Type != dbuswire.MethodReturn && m.Type != dbuswire.ErrorReply {
			continue
		}
		pc.mu.Lock()
		_, waited := pc.pending[m.ReplySerial]
		pc.mu.Unlock()
		if !waited { // its context ended: nobody reads the answer
			continue
		}
		body, err := dbuswire.DecodeBody(m.Body, m.Order, m.Signature)
		if err == nil && m.Type == dbuswire.ErrorReply {
			err = dbus.Error{Name: m.ErrorName, Body: body}
			body = nil
		}
		pc.end(m.ReplySerial, body, err)
	}
}
