package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/headless"
)

func init() {
	platformSuites = append(platformSuites, suite{"atspi-locator", benchATSPILocators})
}

// The button of benchATSPILocators: the fixture's first added button (add_button).
const (
	locatorLabel   = "Apply"
	locatorEnable  = 300 * time.Millisecond // the app makes it sensitive this long after the request
	locatorTarget  = 40 * time.Millisecond  // ours' p50, enabled -> clicked
	locatorSamples = 40                     // half ours, half the loop
)

// benchATSPILocators: on the GTK3 fixture, click a button that the app enables 300 ms after
// the request, measured by the app's own clock from the button turning sensitive to its click.
// Ours is one request, click by locator (the daemon waits until the button is actionable); the
// peers' way is an inspect every 100 ms until the button shows enabled, then a click by id.
// Interleaved.
func benchATSPILocators() ([]row, error) {
	dd, stop, err := startDesktopDaemon(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx := context.Background()
	pid := dd.app.PID
	if _, err := dd.app.Do(ctx, map[string]any{"cmd": "add_button", "label": locatorLabel, "sensitive": false}); err != nil {
		return nil, err
	}
	var ours, polled, waited []time.Duration
	for i := range locatorSamples {
		if _, err := dd.app.Do(ctx, map[string]any{"cmd": "set_sensitive", "label": locatorLabel, "index": 0, "sensitive": false}); err != nil {
			return nil, err
		}
		before, err := dd.app.State(ctx)
		if err != nil {
			return nil, err
		}
		if len(before.Buttons) != 1 || before.Buttons[0].Sensitive {
			return nil, fmt.Errorf("the fixture's added buttons: %+v, want one insensitive %q", before.Buttons, locatorLabel)
		}
		if _, err := dd.app.Do(ctx, map[string]any{"cmd": "set_sensitive", "label": locatorLabel, "index": 0, "sensitive": true,
			"after_ms": locatorEnable.Milliseconds()}); err != nil {
			return nil, err
		}
		actx, cancel := context.WithTimeout(ctx, 15*time.Second)
		if i%2 == 0 {
			r, err := dd.client.Act(actx, "click", api.ActionRequest{Locator: "role=button,name=" + locatorLabel,
				AppTarget: api.AppTarget{PID: pid}, TimeoutMS: 5000})
			cancel()
			if err != nil {
				return nil, err
			}
			if !r.Delivered {
				return nil, fmt.Errorf("click by locator not delivered: %+v", r.Trace)
			}
			if r.Target != nil && r.Target.WaitedMS != nil {
				waited = append(waited, time.Duration(*r.Target.WaitedMS*float64(time.Millisecond)))
			}
		} else {
			time.Sleep(time.Duration(i*7%100) * time.Millisecond) // the change lands anywhere in the polling period
			err := pollAndClick(actx, dd.client, pid, locatorLabel)
			cancel()
			if err != nil {
				return nil, err
			}
		}
		b, err := awaitClick(ctx, dd.app, before.Buttons[0].Clicks)
		if err != nil {
			return nil, err
		}
		d := time.Duration(b.ClickedAt - b.SensitiveAt)
		if d < 0 {
			return nil, fmt.Errorf("%q clicked %v before it was enabled", locatorLabel, -d)
		}
		if i%2 == 0 {
			ours = append(ours, d)
		} else {
			polled = append(polled, d)
		}
	}
	o, p := percentile(ours, 50), percentile(polled, 50)
	waitNote := "the reply gave no waited_ms"
	if len(waited) > 0 {
		waitNote = "the daemon's waited_ms p50 " + us(percentile(waited, 50))
	}
	return []row{
		{"locator", fmt.Sprintf("GTK3: button enabled %s after the request -> clicked, click by locator, p50 / p99 (target p50 <= %s)", ms(locatorEnable), ms(locatorTarget)),
			p50p99(ours), fmt.Sprintf("%s; %d clicks over TCP, the app's clock, interleaved with the loop below; %s", verdict(o <= locatorTarget), len(ours), waitNote), "", ""},
		{"locator", "GTK3: the same, inspect every 100 ms until enabled, then click by id, p50 / p99", p50p99(polled),
			fmt.Sprintf("%d loops (the peers' way)", len(polled)), "", ""},
		{"locator", "GTK3: enabled -> clicked, ours vs the loop, p50 (target: ours faster)", fmt.Sprintf("%s vs %s", us(o), us(p)),
			fmt.Sprintf("%s; ours is %s faster at p50", verdict(o < p), ratio(p, o)), "", ""},
	}, nil
}

// pollAndClick inspects the app every 100 ms until its button labelled label shows enabled,
// then clicks it by SNAPSHOT:ELEMENT.
func pollAndClick(ctx context.Context, cl *client.Client, pid int, label string) error {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		insp, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: pid}})
		if err != nil {
			return err
		}
		for _, e := range insp.Elements {
			if e.Role == model.RoleButton && e.Name == label && e.States.Has(model.StateEnabled) {
				r, err := cl.Act(ctx, "click", api.ActionRequest{Target: insp.SnapshotID + ":" + e.ID})
				if err != nil {
					return err
				}
				if !r.Delivered {
					return fmt.Errorf("click by id not delivered: %+v", r.Trace)
				}
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// awaitClick reads the app's state until its first added button has more than clicks clicks.
func awaitClick(ctx context.Context, app *headless.App, clicks int) (headless.Button, error) {
	deadline := time.Now().Add(3 * time.Second)
	for {
		st, err := app.State(ctx)
		if err != nil {
			return headless.Button{}, err
		}
		if len(st.Buttons) == 0 {
			return headless.Button{}, errors.New("the fixture lost its added button")
		}
		if b := st.Buttons[0]; b.Clicks > clicks {
			return b, nil
		}
		if time.Now().After(deadline) {
			return headless.Button{}, fmt.Errorf("%q not clicked within 3 s of the action's reply: %+v", st.Buttons[0].Label, st.Buttons[0])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
