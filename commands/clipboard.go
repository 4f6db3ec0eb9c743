package commands

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// Clipboard reads or writes the clipboard's text. A write holds the host's input lease while it
// runs (another agent's paste may be under way), and is proven by reading the clipboard again.
func (e *Engine) Clipboard(ctx context.Context, r api.ClipboardRequest) (*api.ClipboardReply, error) {
	cb, ok := e.o.Backend().(observer.Clipboard)
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported, "Run the daemon on a backend with a clipboard (X11, macOS).", "this backend has no clipboard")
	}
	switch r.Op {
	case "get":
	case "set":
		text := ""
		if r.Text != nil {
			text = *r.Text
		}
		if err := model.CheckClipboardText(text); err != nil {
			return nil, err
		}
		if e.leases != nil {
			release, err := e.leases.HoldInput(ctx, api.IdentityOf(ctx), "clipboard", model.AppRef{})
			if err != nil {
				return nil, err
			}
			defer release()
		}
		if _, err := cb.WriteClipboard(ctx, text, r.Text != nil); err != nil {
			return nil, err
		}
	default:
		return nil, model.Errorf(model.CodeBadRequest, "Use op get, or op set with text.", "unknown clipboard op %q", r.Op)
	}
	text, has, err := cb.ReadClipboard(ctx)
	if err != nil {
		return nil, err
	}
	return &api.ClipboardReply{Text: text, Empty: !has}, nil
}
