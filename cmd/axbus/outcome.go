package main

import (
	"context"
	"time"

	"github.com/axbus/axbus/client"
)

// replyMargin is how much longer than its outcome's time a command waits for the daemon's
// reply: the daemon answers when what it waits on ends (TIMEOUT included at its deadline), and
// that answer must still arrive over a busy connection.
const replyMargin = 10 * time.Second

// outcomeTime is how long the user waits for what a command waits on (a condition, an expect, a
// locator's element, an app): --timeout, else legacyFor (the hidden --for it replaced), else def,
// the daemon's own default.
func (f *connFlags) outcomeTime(legacyFor, def time.Duration) time.Duration {
	switch {
	case f.Timeout > 0:
		return f.Timeout
	case legacyFor > 0:
		return legacyFor
	}
	return def
}

// awaitOutcome bounds ctx for a reply that comes once what the command waits on has ended: the
// outcome's time (every wait of the command and what the daemon does between them) and
// replyMargin. It is the one rule that derives a reply deadline from --timeout.
func awaitOutcome(ctx context.Context, outcome time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, outcome+replyMargin)
}

// callWithin is call for a command whose reply comes once what it waits on, for up to outcome,
// has ended.
func callWithin(e *env, c *connFlags, outcome time.Duration, fn func(context.Context, *client.Client) (any, error)) error {
	client, closeConn, err := c.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := awaitOutcome(e.ctx, outcome)
	defer cancel()
	reply, err := fn(ctx, client)
	if err != nil {
		return err
	}
	return e.print(c.JSON, reply)
}
