package textform

import (
	"fmt"
	"io"
	"strconv"

	"github.com/axbus/axbus/api"
)

// replayForm is a run: a line a step, then where and why it failed, the elements most like the
// one looked for, and the screenshot to look at.
func replayForm(w io.Writer, r *api.ReplayReply) error {
	fmt.Fprintf(w, "run %s: %s in %s\n", r.Run, r.Outcome, MS(r.ElapsedMS))
	for _, s := range r.Steps {
		line := fmt.Sprintf("  %d %-10s %-7s %s", s.Step, s.Action, s.Outcome, MS(s.ElapsedMS))
		if s.Disposition != "" {
			line += "  " + s.Disposition
		}
		fmt.Fprintln(w, line)
	}
	f := r.Failure
	if f == nil {
		return nil
	}
	fmt.Fprintf(w, "step %d (%s %s) failed: %s: %s\n  %s\n", f.Step, f.Action, f.Locator, f.Error.Code, Short(f.Error.Message, 200), f.Error.Suggestion)
	for _, c := range f.Candidates {
		fmt.Fprintf(w, "  candidate %s %s %s\n", c.ID, c.Role, strconv.Quote(Short(c.Name, 60)))
	}
	if s := f.Screenshot; s != nil {
		fmt.Fprintf(w, "  screenshot %s: %dx%d PNG in %d parts (screenshot_part)\n", s.ID, s.Width, s.Height, s.Parts)
	}
	return nil
}
