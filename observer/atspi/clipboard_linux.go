//go:build linux

package atspi

import (
	"context"

	"github.com/axbus/axbus/model"
)

// ReadClipboard reads the CLIPBOARD selection as text (x11.Clipboard.Read).
func (b *Backend) ReadClipboard(ctx context.Context) (string, bool, error) {
	cc, err := b.clip()
	if err != nil {
		return "", false, err
	}
	text, ok, err := cc.Read(ctx)
	return text, ok, clipboardErr(err)
}

// WriteClipboard puts text on the CLIPBOARD selection (or, without has, leaves it without owner:
// empty), served by the clipboard's connection until another app takes it over.
func (b *Backend) WriteClipboard(ctx context.Context, text string, has bool) (func() <-chan struct{}, error) {
	if err := model.CheckClipboardText(text); err != nil {
		return nil, err
	}
	cc, err := b.clip()
	if err != nil {
		return nil, err
	}
	taken, err := cc.Write(ctx, text, has)
	return taken, clipboardErr(err)
}
