package handlers

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/text"
)

// Observing answers the endpoints that read the desktop: apps, windows, inspect, read,
// snapshot, screenshot and its parts. Walks of whole windows, screenshots and text recognition
// are heavy work, admitted by identity and in all (heavy.go).
type Observing struct {
	obs        *observer.Observer
	recognizer observer.TextRecognizer
	gate       heavyGate // screenshots, text recognition, reads and scoped inspections (api.MaxHeavy)
	shots      shotStore // screenshots' PNGs, fetched part by part
}

// NewObserving answers over obs; recognizer recognises text in screenshots and inspections that
// ask for it (ocr): without one their recognized_text says why there is none.
func NewObserving(obs *observer.Observer, recognizer observer.TextRecognizer) *Observing {
	return &Observing{obs: obs, recognizer: recognizer}
}

// Apps lists the running apps.
func (o *Observing) Apps(ctx context.Context, _ api.AppsRequest) (any, error) {
	apps, err := o.obs.Apps(ctx)
	if err != nil {
		return nil, err
	}
	if apps == nil {
		apps = []model.App{}
	}
	return api.AppsReply{Apps: apps}, nil
}

// Windows lists an app's windows.
func (o *Observing) Windows(ctx context.Context, r api.WindowsRequest) (any, error) {
	app, wins, err := o.obs.Windows(ctx, r.Query())
	if err != nil {
		return nil, err
	}
	if wins == nil {
		wins = []model.Window{}
	}
	return api.WindowsReply{App: app.Ref(), Windows: wins}, nil
}

// Inspect lists a window; a scoped inspection, which walks the whole window with the wide
// budget, is heavy work. Text recognition (ocr) reads pixels: not a monitor's (api.Pixels).
func (o *Observing) Inspect(ctx context.Context, r api.InspectRequest) (any, error) {
	scope, err := optionalScope(r.Scope)
	if err != nil {
		return nil, err
	}
	if who := api.IdentityOf(ctx); r.OCR && !api.Pixels.May(who.Role) {
		return nil, model.Errorf(model.CodePermissionDenied, "Inspect without ocr, or ask an admin for an agent's credentials.",
			"%s (role %s) may not read the screen's pixels (ocr)", who.Name, who.Role)
	}
	inspect := func() (any, error) {
		insp, err := o.obs.Inspect(ctx, observer.InspectRequest{App: r.Query(), Window: r.Window, Scope: scope})
		if err == nil && r.OCR {
			insp.RecognizedText = o.recognizeWindow(ctx, insp)
		}
		if err == nil && r.Locators {
			err = o.addLocators(ctx, insp)
		}
		return encodeListing(insp, err)
	}
	if scope == nil {
		return inspect()
	}
	return o.heavy(ctx, walkCost(model.WideBudget()), inspect)
}

// Read walks a window for its text with the whole budget: heavy work.
func (o *Observing) Read(ctx context.Context, r api.ReadRequest) (any, error) {
	scope, err := optionalScope(r.Scope)
	if err != nil {
		return nil, err
	}
	return o.heavy(ctx, walkCost(model.WholeBudget()), func() (any, error) {
		return text.Read(ctx, o.obs, text.Request{App: r.Query(), Window: r.Window, Scope: scope, Limit: r.Limit, All: r.All})
	})
}

// Snapshot lists a stored snapshot of the requester's (an admin's: anyone's).
func (o *Observing) Snapshot(ctx context.Context, r api.SnapshotRequest) (any, error) {
	snap, err := o.obs.Store().GetFor(ctx, r.SnapshotID)
	if err != nil {
		return nil, err
	}
	root := 0
	if r.Element != "" {
		el, err := snap.Element(r.Element)
		if err != nil {
			return nil, err
		}
		root = el.Index
	}
	return encodeListing(snap.Listing(snap.Subtree(root)), nil)
}

// optionalScope parses a request's scope; "" is none.
func optionalScope(s string) (*observer.Scope, error) {
	if s == "" {
		return nil, nil
	}
	scope, err := observer.ParseScope(s)
	if err != nil {
		return nil, err
	}
	return &scope, nil
}

// encodeListing encodes an inspection with its own encoder, as the wait endpoint does: the
// same bytes as encoding/json, 2.7x faster.
func encodeListing(insp *model.Inspection, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	b, err := insp.AppendJSON(nil)
	return &bus.Encoded{Data: b}, err
}
