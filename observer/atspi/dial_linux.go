//go:build linux

package atspi

import (
	"bufio"
	"context"
	"net"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// godbus reads every message straight from the socket in two or three read calls (header,
// fields, body). A walk of a 16,000-element web page is ~150,000 replies, and those reads were
// half of axbus's CPU time: the connections axbus dials itself read through a buffer instead.

// readBuffer is the size of a connection's read buffer: many small replies per read call.
const readBuffer = 64 << 10

// bufferedConn is a socket whose reads go through a buffer and whose writes have a deadline (an
// app that stops reading fails the write instead of blocking it).
type bufferedConn struct {
	net.Conn
	r       *bufio.Reader
	timeout time.Duration // 0: no write deadline
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *bufferedConn) Write(p []byte) (int, error) {
	if c.timeout > 0 {
		_ = c.SetWriteDeadline(time.Now().Add(c.timeout))
	}
	return c.Conn.Write(p)
}

// socketPath is the socket of a unix: D-Bus address ("@name" for an abstract one).
func socketPath(addr string) (string, bool) {
	var path string
	switch {
	case strings.HasPrefix(addr, "unix:path="):
		path = strings.TrimPrefix(addr, "unix:path=")
	case strings.HasPrefix(addr, "unix:abstract="):
		path = "@" + strings.TrimPrefix(addr, "unix:abstract=")
	default:
		return "", false
	}
	if i := strings.IndexByte(path, ','); i >= 0 { // further keys (guid=...)
		path = path[:i]
	}
	return path, true
}

// dialBuffered connects to a unix: D-Bus address through a bufferedConn and authenticates. Auth
// has no deadline of its own and a peer that froze would hold it forever: the context ends it
// by closing the socket. It returns the raw socket too, to close under a blocked write.
func dialBuffered(ctx context.Context, addr string, writeTimeout time.Duration, opts ...dbus.ConnOption) (*dbus.Conn, net.Conn, error) {
	path, ok := socketPath(addr)
	if !ok {
		return nil, nil, &net.AddrError{Err: "not a unix path", Addr: addr}
	}
	var d net.Dialer
	raw, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, nil, err
	}
	conn, err := dbus.NewConn(&bufferedConn{Conn: raw, r: bufio.NewReaderSize(raw, readBuffer), timeout: writeTimeout}, opts...)
	if err != nil {
		_ = raw.Close()
		return nil, nil, err
	}
	authed := make(chan error, 1)
	go func() { authed <- conn.Auth(nil) }()
	select {
	case err = <-authed:
	case <-ctx.Done():
		_ = conn.Close()
		err = <-authed
	}
	if err != nil {
		_ = conn.Close()
		return nil, nil, err
	}
	return conn, raw, nil
}

// connectBus connects to the accessibility bus: buffered when it is a unix socket (it always is
// with at-spi2-core), else as godbus does.
func connectBus(ctx context.Context, addr string, opts ...dbus.ConnOption) (*dbus.Conn, error) {
	if _, ok := socketPath(addr); !ok {
		return dbus.Connect(addr, opts...)
	}
	conn, _, err := dialBuffered(ctx, addr, 0, opts...)
	if err != nil {
		return nil, err
	}
	if err := conn.Hello(); err != nil {
		_ = conn.Close()
		return nil, err
	}
	return conn, nil
}
