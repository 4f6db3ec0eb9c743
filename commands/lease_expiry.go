package commands

import (
	"context"
	"time"

	"github.com/axbus/axbus/api"
)

// A lease ends at its expiry (its timer), when its holder's connection goes (the sweeper asks
// the server), or on release.

// endedLocked ends h if it is over: past its expiry (its timer is late), or its holder's
// connection gone (the sweeper has not come by yet).
func (l *Leases) endedLocked(h *held) bool {
	switch {
	case !time.Now().Before(h.Expires):
		l.endLocked(h, api.LeaseExpired)
	case h.Conn != 0 && !l.host.Connected(h.Holder, h.Conn):
		l.endLocked(h, api.LeaseHolderGone)
	default:
		return false
	}
	return true
}

// endLocked ends h: out of the index and the store, and the change published.
func (l *Leases) endLocked(h *held, event string) {
	if l.held[h.Key] != h {
		return
	}
	delete(l.held, h.Key)
	h.timer.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	l.host.Delete(ctx, h.Key, h.rev)
	l.host.Publish(api.LeaseEvent{Event: event, Lease: h.Lease, Time: time.Now()})
}

// armLocked (re)sets h's expiry timer.
func (l *Leases) armLocked(h *held) {
	if h.timer != nil {
		h.timer.Stop()
	}
	h.timer = time.AfterFunc(time.Until(h.Expires), func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if !l.closed && l.held[h.Key] == h && !time.Now().Before(h.Expires) { // not renewed meanwhile
			l.endLocked(h, api.LeaseExpired)
		}
	})
}

// sweeper ends the leases whose holder's connection went, every sweep while leases exist: the
// server tells nobody of a connection closing but its system account, so the daemon asks it
// (Connected). A contended lease is asked after at once anyway.
func (l *Leases) sweeper() {
	defer close(l.done)
	t := time.NewTimer(l.sweep)
	defer t.Stop()
	for {
		l.mu.Lock()
		n := len(l.held)
		l.mu.Unlock()
		if n == 0 {
			select {
			case <-l.kick:
			case <-l.stop:
				return
			}
		}
		t.Reset(l.sweep)
		select {
		case <-t.C:
		case <-l.stop:
			return
		}
		l.sweepOnce()
	}
}

// sweepOnce asks after the holders' connections outside the lock, then ends the leases of
// those gone that nobody changed meanwhile.
func (l *Leases) sweepOnce() {
	l.mu.Lock()
	var hs []*held
	for _, h := range l.held {
		if h.Conn != 0 {
			hs = append(hs, h)
		}
	}
	type tie struct {
		name string
		conn uint64
	}
	ties := make([]tie, len(hs))
	for i, h := range hs {
		ties[i] = tie{h.Holder, h.Conn}
	}
	l.mu.Unlock()
	gone := map[tie]bool{}
	for _, c := range ties {
		if _, asked := gone[c]; !asked {
			gone[c] = !l.host.Connected(c.name, c.conn)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, h := range hs {
		if gone[ties[i]] {
			l.endLocked(h, api.LeaseHolderGone)
		}
	}
}
