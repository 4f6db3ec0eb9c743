//go:build linux

package atspi

import (
	"context"
	"math"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/x11"
	"github.com/axbus/axbus/observer"
)

// Input synthesises physical input through XTEST: a pointer click at (X, Y), typing, or key
// combinations. Without a window manager the app's window is raised and given the input focus
// first, as xdotool's windowfocus does. The text typed is never logged.
func (b *Backend) Input(ctx context.Context, in observer.Input) error {
	b.acting()
	defer b.acting()
	x, err := b.xconn()
	if err != nil {
		return err
	}
	if !x.HasXTest() {
		return model.Errorf(model.CodeUnavailable, "Use an X server with the XTEST extension (Xorg and Xvfb have it).",
			"physical input is unavailable: %v", x11.ErrNoXTest)
	}
	if err := ctx.Err(); err != nil {
		return model.AsError(err)
	}
	switch in.Kind {
	case observer.InputClick:
		return b.click(x, in)
	case observer.InputType:
		return b.typeText(ctx, x, in)
	case observer.InputKey:
		combos, err := ParseKeys(in.Keys)
		if err != nil {
			return model.Errorf(model.CodeBadRequest, `Give keys like "ctrl+a", "Return", "shift+Tab" or "ctrl+shift+s".`,
				"bad key sequence: %v", err)
		}
		strokes := make([]x11.Keystroke, len(combos))
		for i, c := range combos {
			strokes[i] = x11.Keystroke{Mods: c.Mods, Key: c.Key}
		}
		return x.Tap(ctx, in.PID, strokes)
	}
	return model.Errorf(model.CodeBadRequest, "Use one of: click, type, key.", "unknown input kind %q", in.Kind)
}

// click checks the point and the button and clicks (x11.Conn.Click).
func (b *Backend) click(x *x11.Conn, in observer.Input) error {
	if math.IsNaN(in.X) || math.IsNaN(in.Y) || in.X < -32768 || in.X > 32767 || in.Y < -32768 || in.Y > 32767 {
		return model.Errorf(model.CodeBadRequest, "Give a point on the screen.", "point (%v, %v) is off any screen", in.X, in.Y)
	}
	button := in.Button
	if button == 0 {
		button = 1
	}
	if button < 1 || button > 9 {
		return model.ErrButton(in.Button)
	}
	return x.Click(in.PID, int16(math.Round(in.X)), int16(math.Round(in.Y)), byte(button), max(in.Count, 1))
}

// typeText types in.Text into the app's focused window, a keysym a character.
func (b *Backend) typeText(ctx context.Context, x *x11.Conn, in observer.Input) error {
	if in.Text == "" {
		return nil
	}
	if len(in.Text) > 65536 {
		return model.Errorf(model.CodeBadRequest, "Type at most 64 KiB at once.", "text too long to type (%d bytes)", len(in.Text))
	}
	strokes := make([]x11.Keystroke, 0, len(in.Text))
	for _, r := range in.Text {
		strokes = append(strokes, x11.Keystroke{Key: RuneKeysym(r)})
	}
	return x.Tap(ctx, in.PID, strokes)
}
