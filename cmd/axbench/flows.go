package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

// benchFlowRuns is how many times each way runs the flow, interleaved.
const benchFlowRuns = 5

// peersFloor is the peers' way's fixed delays alone: what it costs whatever its tool does.
var peersFloor = time.Duration(len(benchFlow.Steps)) * 500 * time.Millisecond

// benchFlow is a 10-step flow on the sim's Notes and Mail, whose reactions take 100 to 300 ms
// (Save's sheet, its OK, Compose's window, Send): it ends as it began, so it runs again.
var benchFlow = api.Flow{Version: 1, Name: "bench", Steps: []api.FlowStep{
	{Action: "set_value", App: "Notes", Locator: "role=text_field,name=Title", Value: "A", Expect: `value:"A"`},
	{Action: "toggle", App: "Notes", Locator: `role=checkbox,name="Remember me"`, Expect: "state:checked"},
	{Action: "click", App: "Notes", Locator: "role=button,name=Save", Expect: "dialog"},
	{Action: "click", App: "Notes", Locator: "role=button,name=OK", Expect: "window_gone"},
	{Action: "set_value", App: "Notes", Locator: "role=text_field,name=Title", Value: "B", Expect: `value:"B"`},
	{Action: "toggle", App: "Notes", Locator: `role=checkbox,name="Remember me"`, Expect: "state!=checked"},
	{Action: "click", App: "Mail", Locator: "role=button,name=Compose", Expect: `window:title="New Message"`},
	{Action: "set_value", App: "Mail", Locator: "role=text_field,name=To", Value: "ada@example.org", Expect: `value:"ada@example.org"`},
	{Action: "click", App: "Mail", Locator: "role=button,name=Send", Expect: "window_gone"},
	{Action: "set_value", App: "Notes", Locator: "role=text_field,name=Title", Value: "Shopping list", Expect: `value:"Shopping list"`},
}}

// benchFlows: the same 10 steps replayed by axbus (each step's element waited for by
// subscription, acted, its expect proven) and driven the peers' way (an inspect every 100 ms
// until the step's element is listed, a click or set by id, then a fixed 500 ms before the next
// step), wall time of the whole run, interleaved.
func benchFlows() ([]row, error) {
	cd, stop, err := startWithClient(simDemo)
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx := context.Background()
	var ours, peers []time.Duration
	for range benchFlowRuns {
		start := time.Now()
		run, err := cd.client.Replay(ctx, api.ReplayRequest{Flow: benchFlow})
		if err != nil {
			return nil, err
		}
		if run.Outcome != api.FlowMet {
			return nil, fmt.Errorf("the replay: %+v %+v", run.Steps, run.Failure)
		}
		ours = append(ours, time.Since(start))
		start = time.Now()
		if err := peersWay(ctx, cd.client, benchFlow); err != nil {
			return nil, err
		}
		peers = append(peers, time.Since(start))
	}
	o, p := percentile(ours, 50), percentile(peers, 50)
	return []row{
		{"flows", "a 10-step flow on the sim (reactions of 100-300 ms), axbus replay, wall p50 / p99", p50p99(ours),
			fmt.Sprintf("%d runs, interleaved with the peers' way", len(ours)), "", ""},
		{"flows", "the same steps the peers' way: inspect every 100 ms until the element shows, act by id, 500 ms between steps, wall p50 / p99", p50p99(peers),
			fmt.Sprintf("%d runs; nothing proves a step's effect; its clicks, through axbus, include axbus's settle window (up to 500 ms each)", len(peers)), "", ""},
		{"flows", "replay vs the peers' way, p50 (target: replay faster)", fmt.Sprintf("%s vs %s", ms(o), ms(p)),
			fmt.Sprintf("replay %s faster at p50; %s faster than the peers' delays alone (%s)", ratio(p, o), ratio(peersFloor, o), ms(peersFloor)), "faster", verdict(o < p && o < peersFloor)},
	}, nil
}

// peersWay runs a flow's steps as the tools axbus replaces do: for each, inspect the app every
// 100 ms until an element with the locator's role and name is listed, act on it by id, then
// wait a fixed 500 ms.
func peersWay(ctx context.Context, cl *client.Client, f api.Flow) error {
	for _, s := range f.Steps {
		role, name := roleAndName(s.Locator)
		target, err := inspectUntil(ctx, cl, s.App, role, name)
		if err != nil {
			return err
		}
		if _, err := cl.Act(ctx, s.Action, api.ActionRequest{Target: target, Value: s.Value}); err != nil {
			return err
		}
		time.Sleep(500 * time.Millisecond) // the peers' fixed delay is what is measured
	}
	return nil
}

// inspectUntil inspects app every 100 ms until an element of role and name is listed, and
// returns it as SNAPSHOT:ELEMENT.
func inspectUntil(ctx context.Context, cl *client.Client, app, role, name string) (string, error) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		insp, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: app}})
		if err != nil {
			return "", err
		}
		for _, e := range insp.Elements {
			if string(e.Role) == role && e.Name == name {
				return insp.SnapshotID + ":" + e.ID, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no %s %q in %s: %w", role, name, app, ctx.Err())
		case <-t.C:
		}
	}
}

// roleAndName are a one-step locator's role and name (role=button,name=Save, a name quoted).
func roleAndName(locator string) (role, name string) {
	for _, field := range strings.SplitN(locator, ",", 2) {
		k, v, _ := strings.Cut(field, "=")
		switch k {
		case "role":
			role = v
		case "name":
			name = strings.Trim(v, `"`)
		}
	}
	return role, name
}
