package commands

import (
	"context"
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// WithLeases makes every action respect the leases of l: refused (LEASE_HELD) on an app or
// window another identity holds, its physical input only under the host's input lease.
func WithLeases(l *Leases) Option { return func(e *Engine) { e.leases = l } }

// leaseGate is one action's leases: its app's (or window's) checked before it acts, the input
// lease taken at its first physical input and given back when its chain ends. A nil gate
// checks nothing.
type leaseGate struct {
	l      *Leases
	ctx    context.Context
	who    api.Identity
	action string
	app    model.AppRef

	mu      sync.Mutex
	release func()
	refused error
}

// leaseGate checks t's leases for the identity that asks (api.IdentityOf): LEASE_HELD when
// another holds its app, or the window of its snapshot (the whole app for a key combination).
func (e *Engine) leaseGate(ctx context.Context, action string, t *target) (*leaseGate, error) {
	if e.leases == nil {
		return nil, nil
	}
	who := api.IdentityOf(ctx)
	window := ""
	if t.snap != nil {
		window = t.snap.Window.ID
	}
	if err := e.leases.Check(who, t.app, window); err != nil {
		return nil, err
	}
	return &leaseGate{l: e.leases, ctx: ctx, who: who, action: action, app: t.app.Ref()}, nil
}

// backend is b whose physical input waits for nothing but takes the input lease first: a
// chain that falls to a physical step needs it, one that does not never asks.
func (g *leaseGate) backend(b observer.Backend) observer.Backend {
	if g == nil {
		return b
	}
	return gatedBackend{Backend: b, g: g}
}

// end gives back the input lease the action took, and says whether its physical input was
// refused.
func (g *leaseGate) end() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.release != nil {
		g.release()
		g.release = nil
	}
	return g.refused
}

func (g *leaseGate) hold() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.release != nil {
		return nil
	}
	release, err := g.l.HoldInput(g.ctx, g.who, g.action, g.app)
	if err != nil {
		g.refused = err
		return err
	}
	g.release = release
	return nil
}

// gatedBackend is a backend whose Input holds the input lease.
type gatedBackend struct {
	observer.Backend
	g *leaseGate
}

func (b gatedBackend) Input(ctx context.Context, in observer.Input) error {
	if err := b.g.hold(); err != nil {
		return err
	}
	return b.Backend.Input(ctx, in)
}

// ReadClipboard and WriteClipboard pass the clipboard through (the paste fallback), a write
// under the input lease: it changes what every app pastes.
func (b gatedBackend) ReadClipboard(ctx context.Context) (string, bool, error) {
	cb, ok := b.Backend.(observer.Clipboard)
	if !ok {
		return "", false, model.Errorf(model.CodeNotSupported, "Type the text in parts.", "this backend has no clipboard")
	}
	return cb.ReadClipboard(ctx)
}

func (b gatedBackend) WriteClipboard(ctx context.Context, text string, has bool) (func() <-chan struct{}, error) {
	cb, ok := b.Backend.(observer.Clipboard)
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported, "Type the text in parts.", "this backend has no clipboard")
	}
	if err := b.g.hold(); err != nil {
		return nil, err
	}
	return cb.WriteClipboard(ctx, text, has)
}
