package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/textform"

	"github.com/axbus/axbus/api"
)

// The audit trail and presence on the command line: `axbus tail --actions` and `axbus agents`.

type agentsCmd struct {
	connFlags
}

func (c *agentsCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Agents(ctx)
	})
}

// agentsForm is one identity a line: name, role, since when, connections, last action, the
// leases it holds and those it waits for.
func agentsForm(w io.Writer, r *api.AgentsReply) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tROLE\tSINCE\tCONNS\tLAST ACTION\tLEASES")
	for _, a := range r.Agents {
		last := "-"
		if a.LastAction != nil {
			last = a.LastAction.Time.Local().Format("15:04:05") + " " + a.LastAction.Action + " " + appOf(a.LastAction) + " " + outcomeOf(a.LastAction)
		}
		leases := strings.Join(a.Leases, ",")
		for _, k := range a.Waiting {
			leases = strings.TrimPrefix(leases+",waiting for "+k, ",")
		}
		if leases == "" {
			leases = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", a.Name, a.Role, a.Since.Local().Format("2006-01-02 15:04:05"), len(a.Connections), last, leases)
	}
	return tw.Flush()
}

// tailActions follows the action records, as Run follows events.
func (c *tailCmd) tailActions(e *env, cl *client.Client, opt client.TailOptions) error {
	records, err := cl.TailActions(e.ctx, opt)
	if err != nil {
		return err
	}
	p := e.printer(c.JSON)
	for r := range records {
		if err := p.record(&r); err != nil {
			return err
		}
	}
	return nil
}

// record writes one action record of a tail.
func (p *printer) record(r *api.ActionRecord) error {
	if !p.human {
		return p.enc.Encode(r)
	}
	return p.line(r.Host, recordLine(r))
}

// recordLine is one action record: time, agent, app, action, target, outcome, expect, elapsed.
func recordLine(r *api.ActionRecord) string {
	line := r.Time.Local().Format("15:04:05.000") + "  " + r.Agent.Name + " (" + r.Agent.Role + ")  " + appOf(r) + "  " + r.Action
	if r.Op != "" {
		line += " " + r.Op
	}
	if t := r.Target; t != nil {
		line += "  " + t.Snapshot + ":" + t.Element
		if t.Role != "" {
			line += " " + string(t.Role)
		}
		if t.Name != "" {
			line += " " + strconv.Quote(textform.Short(t.Name, 40))
		}
	}
	line += "  " + outcomeOf(r)
	if x := r.Expect; x != nil {
		line += "  expect " + string(x.Outcome) + " " + textform.MS(x.ElapsedMS)
	}
	return line + "  " + textform.MS(r.ElapsedMS)
}

func appOf(r *api.ActionRecord) string {
	if r.App == nil || r.App.Name == "" {
		return "-"
	}
	return r.App.Name
}

// outcomeOf is "done by STEP (MECHANISM)", "not done" or the error code.
func outcomeOf(r *api.ActionRecord) string {
	switch {
	case r.Error != "":
		return string(r.Error)
	case !r.Done:
		return "not done"
	case r.Step == "":
		return "done"
	}
	s := "done by " + r.Step
	if r.Mechanism != "" {
		s += " (" + r.Mechanism + ")"
	}
	return s
}
