// Package textform owns the compact text forms of replies and events, for a person on a
// terminal (the CLI) and for an agent reading a tool's result (MCP): one thing a line, the ids
// first so that they can be copied into the next request.
package textform

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// Of is the writer of v's text form, or nil when v has none.
func Of(v any) func(io.Writer) error {
	switch r := v.(type) {
	case *api.AppsReply:
		return func(w io.Writer) error { return appsForm(w, r) }
	case *api.WindowsReply:
		return func(w io.Writer) error { return windowsForm(w, r) }
	case *model.Inspection:
		return func(w io.Writer) error { return inspectionForm(w, r) }
	case *api.WaitResult:
		return func(w io.Writer) error { return waitForm(w, r) }
	case *api.ActionReply:
		return func(w io.Writer) error { return actionForm(w, r) }
	case *api.ReplayReply:
		return func(w io.Writer) error { return replayForm(w, r) }
	}
	return nil
}

func appsForm(w io.Writer, r *api.AppsReply) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PID\tNAME\tTOOLKIT\tID")
	for _, a := range r.Apps {
		name := a.Name
		if a.Active {
			name += " (active)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", a.PID, name, a.Toolkit, a.ID)
	}
	return tw.Flush()
}

func windowsForm(w io.Writer, r *api.WindowsReply) error {
	fmt.Fprintf(w, "%s (pid %d)\n", r.App.Name, r.App.PID)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tROLE\tTITLE\tBOUNDS\t")
	for _, win := range r.Windows {
		var flags []string
		if win.Focused {
			flags = append(flags, "focused")
		}
		if win.Modal {
			flags = append(flags, "modal")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", win.ID, win.Role, strconv.Quote(win.Title), rect(win.Bounds), strings.Join(flags, ","))
	}
	return tw.Flush()
}

func waitForm(w io.Writer, r *api.WaitResult) error {
	line := fmt.Sprintf("%s after %s: %s", r.Outcome, MS(r.ElapsedMS), r.Condition)
	if r.Trigger != nil {
		line += " (" + r.Trigger.Kind
		if r.Trigger.Event != "" {
			line += " " + string(r.Trigger.Event)
		}
		line += ")"
	}
	fmt.Fprintln(w, line)
	if r.Match != nil {
		snap := ""
		if r.Snapshot != nil {
			if insp, err := r.Snapshot.Inspection(); err == nil && insp != nil {
				snap = insp.SnapshotID + ":"
			}
		}
		fmt.Fprintf(w, "  match: %s%s %s %q\n", snap, r.Match.ID, r.Match.Role, Short(r.Match.Name, 60))
	}
	if r.Error != nil {
		fmt.Fprintf(w, "  error: %s: %s\n", r.Error.Code, r.Error.Message)
	}
	for _, l := range r.Limits {
		fmt.Fprintf(w, "  could not see window %q whole: %d elements read\n", l.Window.Title, l.Elements)
	}
	return nil
}

func actionForm(w io.Writer, r *api.ActionReply) error {
	target := ""
	if r.Target != nil {
		target = fmt.Sprintf(" %s:%s %s %q", r.Target.Snapshot, r.Target.Element, r.Target.Role, Short(r.Target.Name, 60))
		if r.Target.WaitedMS != nil {
			target += " (actionable after " + MS(*r.Target.WaitedMS) + ")"
		}
	}
	verdict := "not done"
	if r.Done {
		verdict = "done by " + r.Step
		if r.Mechanism != "" {
			verdict += " (" + r.Mechanism + ")"
		}
	}
	fmt.Fprintf(w, "%s%s: %s\n", r.Action, target, verdict)
	for _, s := range r.Trace {
		line := fmt.Sprintf("  %-28s %-10s %s", s.Step, s.Result, MS(s.ElapsedMS))
		if s.Message != "" {
			line += "  " + Short(s.Message, 80)
		}
		fmt.Fprintln(w, line)
	}
	if r.Disposition != "" {
		fmt.Fprintln(w, "  effect "+effectsLine(r.Disposition, r.Effects))
	}
	if r.Expect != nil {
		fmt.Fprint(w, "  expect ")
		return waitForm(w, r.Expect)
	}
	return nil
}

// effectsLine is an action's disposition and its effects in short: `confirmed: dialog_opened
// dialog "Saved", text_changed label "Status" x2`.
func effectsLine(disposition string, effects []api.Effect) string {
	parts := make([]string, 0, len(effects))
	for _, fx := range effects {
		p := string(fx.Type)
		if fx.Role != "" {
			p += " " + string(fx.Role)
		}
		if fx.Name != "" {
			p += " " + strconv.Quote(Short(fx.Name, 40))
		}
		if fx.Count > 1 {
			p += fmt.Sprintf(" x%d", fx.Count)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return disposition
	}
	return disposition + ": " + strings.Join(parts, ", ")
}

// EventLine is one event: time, app, type, element, the detail in short.
func EventLine(env *api.Envelope) string {
	line := env.Time.Local().Format("15:04:05.000") + "  " + env.App.Name + "  " + string(env.Type)
	if el := env.Element; el != nil {
		line += "  " + string(el.Role)
		if el.Name != "" {
			line += " " + strconv.Quote(Short(el.Name, 40))
		}
	} else if env.Window != nil {
		line += "  window " + strconv.Quote(Short(env.Window.Title, 40))
	}
	if len(env.Detail) > 0 {
		keys := make([]string, 0, len(env.Detail))
		for k := range env.Detail {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+Short(fmt.Sprint(env.Detail[k]), 30))
		}
		line += "  " + strings.Join(parts, " ")
	}
	if env.Gap > 0 {
		line += fmt.Sprintf("  (%d events dropped before)", env.Gap)
	}
	return line
}

func rect(r *model.Rect) string {
	if r == nil {
		return "-"
	}
	return fmt.Sprintf("%gx%g+%g+%g", r.W, r.H, r.X, r.Y)
}

// MS writes a duration given in milliseconds, to a tenth of one.
func MS(v float64) string {
	return (time.Duration(v * float64(time.Millisecond))).Round(100 * time.Microsecond).String()
}

// Short cuts s to n runes, on one line.
func Short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
