package commands

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// WithLedger switches web accessibility on and off for agents through l (macOS: an app exposes
// its web content only while switched on); without it the web_accessibility endpoint says why
// none is needed.
func WithLedger(l *observer.Ledger) Option { return func(e *Engine) { e.ledger = l } }

// WebAccessibility is the web_accessibility endpoint's operation: the requester's claim on an
// app's web accessibility taken or given back, and the ledger of every claim.
func (e *Engine) WebAccessibility(ctx context.Context, r api.WebAccessibilityRequest) (*api.WebAccessibilityReply, error) {
	l := e.ledger
	if l == nil {
		return nil, model.Errorf(model.CodeNotSupported,
			"Only macOS apps need it switched on; AT-SPI apps expose their web content to any client.",
			"the %s backend has no web-accessibility switch", e.o.Backend().Platform())
	}
	app, err := e.o.FindApp(ctx, r.Query())
	if err != nil {
		return nil, err
	}
	who := api.IdentityOf(ctx).Name
	if r.On {
		err = l.Enable(ctx, app.PID, who)
	} else {
		err = l.Release(ctx, app.PID, who)
	}
	if err != nil {
		return nil, err
	}
	return &api.WebAccessibilityReply{App: app.Ref(), Ledger: l.Entries()}, nil
}
