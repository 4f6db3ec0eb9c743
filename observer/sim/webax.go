package sim

import (
	"context"

	"github.com/axbus/axbus/model"
)

// SetWebAccessibility switches app pid's web accessibility, as AXManualAccessibility on a
// Chromium or Electron app element does, and reports whether it was on.
func (d *Desktop) SetWebAccessibility(ctx context.Context, pid int, on bool) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, model.AsError(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a, err := d.live(pid)
	if err != nil {
		return false, err
	}
	was := a.webAX
	a.webAX = on
	return was, nil
}

// WebAccessibilityOn reports whether app pid's web accessibility is on (tests).
func (d *Desktop) WebAccessibilityOn(pid int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.appByPID(pid)
	return a != nil && a.webAX
}
