package api

import "context"

// Turn is an action's place among the actions its client sent: Wait returns once every action the
// client sent before this one has been delivered to its app (or has failed), and Done says that
// this one has been. Actions from one client so reach an app in the order sent, whichever
// endpoints they went to and however the daemon schedules their handlers. The service gives each
// action request a turn; a context without one keeps no order.
type Turn interface {
	Wait(ctx context.Context) error
	Done()
}

type turnKey struct{}

// WithTurn returns ctx carrying t.
func WithTurn(ctx context.Context, t Turn) context.Context {
	return context.WithValue(ctx, turnKey{}, t)
}

// TurnOf is the turn WithTurn put in ctx, or nil.
func TurnOf(ctx context.Context) Turn {
	t, _ := ctx.Value(turnKey{}).(Turn)
	return t
}
