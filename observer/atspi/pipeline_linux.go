//go:build linux

package atspi

import (
	"context"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// caller issues D-Bus calls for one phase of a read. Pipelined, every call is sent at once and
// wait collects the answers; sequential, each call waits for its answer before the next is sent.
type caller struct {
	b       *Backend
	mu      sync.Mutex
	peers   map[string]*peerConn // the apps called over their peer connections, by bus
	ctx     context.Context      // the phase's: cancelled when the apps stop answering
	cancel  context.CancelFunc
	timeout time.Duration
	seq     bool
	group   *callGroup   // the calls on peer connections
	calls   []*dbus.Call // the calls on the bus
}

func (c *caller) call(bus, path, method string, args ...any) *dbus.Call {
	if pc := c.b.peer(bus); pc != nil {
		c.mu.Lock()
		c.peers[bus] = pc
		c.mu.Unlock()
		if c.seq {
			ctx, cancel := context.WithTimeout(c.ctx, c.timeout)
			defer cancel()
			call := pc.send(ctx, nil, bus, path, method, args)
			pc.flush()
			<-call.Done
			return call
		}
		return pc.send(c.ctx, c.group, bus, path, method, args)
	}
	obj := c.b.conn.Object(bus, dbus.ObjectPath(path))
	if c.seq {
		ctx, cancel := context.WithTimeout(c.ctx, c.timeout)
		defer cancel()
		return obj.CallWithContext(ctx, method, 0, args...)
	}
	call := obj.GoWithContext(c.ctx, method, 0, nil, args...)
	c.calls = append(c.calls, call)
	return call
}

func (c *caller) prop(bus, path, iface, name string) *dbus.Call {
	return c.call(bus, path, propsGet, iface, name)
}

// wait collects every call's answer (each call's Done channel receives exactly once). The call
// timeout counts from the last answer: a busy app that answers a long batch one call after the
// other is waited for, an app that stops answering is given up after the timeout, and its
// remaining calls end with the phase's cancellation.
func (c *caller) wait() {
	c.group.wait(c.timeout, c.cancel)
	if len(c.calls) == 0 {
		return
	}
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	for _, call := range c.calls {
		select {
		case <-call.Done:
		case <-timer.C:
			c.cancel()
			<-call.Done
			continue
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(c.timeout)
	}
	c.calls = c.calls[:0]
}

// flush sends the calls queued on peer connections.
func (c *caller) flush() {
	c.mu.Lock()
	peers := make([]*peerConn, 0, len(c.peers))
	for _, pc := range c.peers {
		peers = append(peers, pc)
	}
	c.mu.Unlock()
	for _, pc := range peers {
		pc.flush()
	}
}

// phase runs fn's calls and waits for them. fn runs on its own goroutine: sending to a frozen
// app's peer connection blocks once its socket is full, and a cancelled phase must still end
// at once, by giving up the peer connections it is blocked on.
func (b *Backend) phase(ctx context.Context, seq bool, fn func(c *caller)) {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &caller{b: b, ctx: pctx, cancel: cancel, timeout: b.cfg.callTimeout, seq: seq, peers: map[string]*peerConn{}, group: newCallGroup()}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		fn(c)
		c.flush()
	}()
	select {
	case <-sent:
	case <-pctx.Done():
		select {
		case <-sent: // the sends were done: the calls end with the cancellation
		case <-time.After(peerGrace):
			c.mu.Lock() // still sending: blocked on a full socket
			for bus := range c.peers {
				b.stallPeer(bus)
			}
			c.mu.Unlock()
			<-sent
		}
	}
	c.wait()
}

// peerGrace is how long a cancelled phase lets its sends finish before it takes them for
// blocked on an app that stopped reading.
const peerGrace = 20 * time.Millisecond
