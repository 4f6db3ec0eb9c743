//go:build linux

package atspi

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/x11"
	"github.com/axbus/axbus/observer"
)

// A person's input, heard through the X server's RECORD extension (observer.InputWatcher).

// WatchInput delivers a person's button and key presses until stop.
func (b *Backend) WatchInput(fn func(observer.PersonInput)) (stop func(), err error) {
	if b.cfg.display == "" {
		return nil, model.Errorf(model.CodeUnavailable, "Recording a person's input needs an X11 display: run axbus in an X session (DISPLAY set).",
			"no X display: DISPLAY is not set")
	}
	rec, err := x11.OpenRecorder(b.cfg.display, b.cfg.xauthority)
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range rec.Events() {
			if ev.Kind != "button" && ev.Kind != "key" {
				continue // the wheel scrolls: no step of its own
			}
			fn(observer.PersonInput{Time: ev.Time, Key: ev.Kind == "key", Button: int(ev.Button), X: float64(ev.X), Y: float64(ev.Y),
				Text: ev.Text, Name: ev.Name, Mods: ev.Mods})
		}
	}()
	return func() { rec.Close(); <-done }, nil
}

// ElementAt is the deepest element at (x, y) in the top-most window there.
func (b *Backend) ElementAt(ctx context.Context, x, y float64) (model.App, model.Window, model.NodeRef, error) {
	xc, err := b.xconn()
	if err != nil {
		return model.App{}, model.Window{}, "", err
	}
	pid, xw, ok := xc.TopAt(int(x), int(y))
	if !ok {
		return model.App{}, model.Window{}, "", nothingAt(x, y)
	}
	apps, err := b.Apps(ctx)
	if err != nil {
		return model.App{}, model.Window{}, "", err
	}
	var app model.App
	for _, a := range apps {
		if a.PID == pid {
			app = a
		}
	}
	wins, err := b.Windows(ctx, pid)
	if app.PID == 0 || err != nil {
		return model.App{}, model.Window{}, "", nothingAt(x, y)
	}
	var win model.Window
	for _, w := range wins { // the accessible window there, the X window's title first
		r := w.Bounds
		if r != nil && x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H && (win.Ref == "" || w.Title == xw.Title) {
			win = w
		}
	}
	if win.Ref == "" {
		return model.App{}, model.Window{}, "", nothingAt(x, y)
	}
	path, err := b.HitPath(ctx, win.Ref, x, y)
	if err != nil || len(path) == 0 {
		return app, win, win.Ref, err
	}
	return app, win, path[len(path)-1], nil
}

func nothingAt(x, y float64) *model.Error {
	return model.Errorf(model.CodeElementNotFound, "Click on an app's window.", "no app's window at (%.0f, %.0f)", x, y)
}

var _ observer.InputWatcher = (*Backend)(nil)
