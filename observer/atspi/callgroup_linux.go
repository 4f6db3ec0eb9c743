//go:build linux

package atspi

import (
	"sync/atomic"
	"time"
)

// callGroup counts the calls of one phase on peer connections, so that the phase sleeps until
// the last answer instead of waking for every one (a walk's phase is hundreds of calls).
type callGroup struct {
	left atomic.Int32
	last atomic.Int64 // time of the last answer, unix ns
	done chan struct{}
}

func newCallGroup() *callGroup { return &callGroup{done: make(chan struct{}, 1)} }

// add counts a call sent. A nil group counts nothing.
func (g *callGroup) add() {
	if g != nil {
		g.left.Add(1)
	}
}

// answered counts a call ended, by its answer or its failure.
func (g *callGroup) answered() {
	if g == nil {
		return
	}
	g.last.Store(time.Now().UnixNano())
	if g.left.Add(-1) == 0 {
		select {
		case g.done <- struct{}{}:
		default:
		}
	}
}

// wait returns once every call counted has ended. The timeout counts from the last answer:
// past it with none, cancel is called (it ends the calls still pending) and wait returns when
// they have ended.
func (g *callGroup) wait(timeout time.Duration, cancel func()) {
	if g.left.Load() == 0 {
		return
	}
	g.last.Store(time.Now().UnixNano())
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for g.left.Load() > 0 {
		select {
		case <-g.done:
		case <-timer.C:
			if idle := time.Since(time.Unix(0, g.last.Load())); idle < timeout {
				timer.Reset(timeout - idle)
				continue
			}
			cancel()
			for g.left.Load() > 0 {
				<-g.done
			}
		}
	}
}
