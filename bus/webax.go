package bus

import (
	"context"
	"time"

	"github.com/axbus/axbus/observer"
)

// WebAccessibilityRequest claims (on) or releases (off) an app's web accessibility for an agent.
type WebAccessibilityRequest struct {
	AppTarget
	On    bool   `json:"on"`
	Agent string `json:"agent"`
}

// WebAccessibilityReply is the ledger after the request.
type WebAccessibilityReply struct {
	App    observer.AppRef        `json:"app"`
	Ledger []observer.LedgerEntry `json:"ledger"`
}

// WebAccessibilityEndpoint is the endpoint of the web-accessibility ledger; l is nil when the
// backend cannot switch web accessibility.
func WebAccessibilityEndpoint(o *observer.Observer, l *observer.Ledger) Endpoint {
	return Endpoint{
		Name:        "web_accessibility",
		Description: "Claim (on) or release (off) an app's web accessibility (Chromium, Electron) for an agent; restored when the last agent releases it or after 10 idle minutes.",
		Timeout:     5 * time.Second,
		Handle: Handler("web_accessibility", func(ctx context.Context, r WebAccessibilityRequest) (any, error) {
			if l == nil {
				return nil, observer.Errorf(observer.CodeNotSupported,
					"Only macOS apps need it switched on; AT-SPI apps expose their web content to any client.",
					"the %s backend has no web-accessibility switch", o.Backend().Platform())
			}
			app, err := o.FindApp(ctx, r.Query())
			if err != nil {
				return nil, err
			}
			if r.On {
				err = l.Enable(ctx, app.PID, r.Agent)
			} else {
				err = l.Release(ctx, app.PID, r.Agent)
			}
			if err != nil {
				return nil, err
			}
			return WebAccessibilityReply{App: app.Ref(), Ledger: l.Entries()}, nil
		}),
	}
}
