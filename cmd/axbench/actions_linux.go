package main

import (
	"context"
	"fmt"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/headless"
)

func init() {
	platformSuites = append(platformSuites, suite{"atspi-act", benchATSPIActions})
}

// benchATSPIActions: on the GTK3 fixture, click Save and know that its dialog opened (the app
// opens it 300 ms after the click). Ours is one request, click with an expect; the peers' way
// is the click, then a look at the windows every 100 ms until the dialog is there. Interleaved.
func benchATSPIActions() ([]row, error) {
	dd, stop, err := startDesktopDaemon(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx := context.Background()
	pid := dd.app.PID
	var ours, polled, oursAfter, polledAfter []time.Duration
	for i := range 30 {
		if _, err := dd.app.Do(ctx, map[string]any{"cmd": "close_dialog"}); err != nil {
			return nil, err
		}
		target, err := saveButton(ctx, dd.client, pid)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		if i%2 == 0 {
			r, err := dd.client.Act(ctx, "click", api.ActionRequest{Target: target,
				Expect: &api.WaitRequest{Expr: `dialog:title~"Saved"`, TimeoutMS: 5000}})
			if err != nil {
				return nil, err
			}
			if r.Expect.Outcome != api.WaitMet {
				return nil, fmt.Errorf("click's expect: %s", r.Expect.Outcome)
			}
		} else {
			if _, err := dd.client.Act(ctx, "click", api.ActionRequest{Target: target}); err != nil {
				return nil, err
			}
			if err := pollForWindow(ctx, dd.client, pid, "Saved"); err != nil {
				return nil, err
			}
		}
		end := time.Now()
		st, err := dd.app.State(ctx)
		if err != nil {
			return nil, err
		}
		after := end.Sub(time.Unix(0, st.SavedAt)) // from the dialog opening to the answer
		if i%2 == 0 {
			ours, oursAfter = append(ours, end.Sub(start)), append(oursAfter, after)
		} else {
			polled, polledAfter = append(polled, end.Sub(start)), append(polledAfter, after)
		}
	}
	return []row{
		{"act", "GTK3: click Save + expect its dialog (opens 300 ms later), round trip p50 / p99", p50p99(ours), "15 actions over TCP, interleaved with the loop below", "", ""},
		{"act", "GTK3: click Save, then list windows every 100 ms until the dialog, p50 / p99", p50p99(polled), "15 loops (the peers' way)", "", ""},
		{"act", "GTK3: dialog open -> answer, ours vs the loop, p50", fmt.Sprintf("%s vs %s", ms(percentile(oursAfter, 50)), ms(percentile(polledAfter, 50))),
			fmt.Sprintf("ours is %s faster at p50 once the effect is there", ratio(percentile(polledAfter, 50), percentile(oursAfter, 50))), "", ""},
	}, nil
}

// saveButton inspects the app and returns SNAPSHOT:ELEMENT of its Save button.
func saveButton(ctx context.Context, cl *client.Client, pid int) (string, error) {
	insp, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: pid}})
	if err != nil {
		return "", err
	}
	for _, e := range insp.Elements {
		if e.Role == model.RoleButton && e.Name == "Save" {
			return insp.SnapshotID + ":" + e.ID, nil
		}
	}
	return "", fmt.Errorf("no Save button in %s", insp.SnapshotID)
}

// pollForWindow lists the app's windows every 100 ms until one has this title.
func pollForWindow(ctx context.Context, cl *client.Client, pid int, title string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		r, err := cl.Windows(ctx, api.AppTarget{PID: pid})
		if err != nil {
			return err
		}
		for _, w := range r.Windows {
			if w.Title == title {
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
