package bus

import (
	"context"
	"sync"

	"github.com/axbus/axbus/model"
)

// turns hands out each action request's turn among its connection's (api.Turn), in the order the
// requests arrived: the service takes every action endpoint's requests off one channel, in
// arrival order, before their handlers run on goroutines of their own.
type turns struct {
	mu    sync.Mutex
	conns map[uint64]*connTurns
}

// connTurns are the turns of one connection not done yet.
type connTurns struct {
	next    uint64
	pending map[uint64]bool
	changed chan struct{} // closed, and replaced, at each turn done
}

func newTurns() *turns { return &turns{conns: map[uint64]*connTurns{}} }

// take gives the next turn of connection conn.
func (ts *turns) take(conn uint64) *turn {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	c := ts.conns[conn]
	if c == nil {
		c = &connTurns{pending: map[uint64]bool{}, changed: make(chan struct{})}
		ts.conns[conn] = c
	}
	t := &turn{ts: ts, conn: conn, seq: c.next}
	c.next++
	c.pending[t.seq] = true
	return t
}

// turn is one action's turn.
type turn struct {
	ts        *turns
	conn, seq uint64
	once      sync.Once
}

// Wait returns once no earlier turn of its connection is pending, or with ctx's error.
func (t *turn) Wait(ctx context.Context) error {
	for {
		t.ts.mu.Lock()
		c := t.ts.conns[t.conn]
		earlier := false
		for seq := range c.pending {
			if seq < t.seq {
				earlier = true
				break
			}
		}
		changed := c.changed
		t.ts.mu.Unlock()
		if !earlier {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return model.Errorf(model.CodeTimeout, "Send the next action once the earlier one has been answered.",
				"this action waited for an earlier action of its client: %v", ctx.Err())
		}
	}
}

// Done ends the turn; the connection is forgotten once it has none left. Safe to call again.
func (t *turn) Done() {
	t.once.Do(func() {
		t.ts.mu.Lock()
		defer t.ts.mu.Unlock()
		c := t.ts.conns[t.conn]
		delete(c.pending, t.seq)
		close(c.changed)
		c.changed = make(chan struct{})
		if len(c.pending) == 0 {
			delete(t.ts.conns, t.conn)
		}
	})
}
