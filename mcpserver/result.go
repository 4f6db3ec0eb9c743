package mcpserver

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/textform"
)

// result is an endpoint's reply as a tool result: the compact text an agent reads, and the
// reply as structured content without the listings it did not ask for (the ids of their
// snapshots kept). An action not done, an expect or a wait not met is an error (isError), its
// text starting with why.
func (c *call) result(raw json.RawMessage) *mcp.CallToolResult {
	ep := c.t.endpoint
	switch {
	case ep == "inspect":
		var insp model.Inspection
		if json.Unmarshal(raw, &insp) == nil {
			return c.inspection(&insp)
		}
	case ep == "wait":
		var w api.WaitResult
		if json.Unmarshal(raw, &w) == nil {
			return c.waited(&w)
		}
	case slices.Contains(api.Actions, ep):
		var r api.ActionReply
		if json.Unmarshal(raw, &r) == nil {
			return acted(&r)
		}
	case ep == "read":
		var r model.ReadResult
		if json.Unmarshal(raw, &r) == nil {
			return textResult(readText(&r), raw)
		}
	case ep == "apps":
		return textResult(textOf(new(api.AppsReply), raw), raw)
	case ep == "windows":
		return textResult(textOf(new(api.WindowsReply), raw), raw)
	case ep == "replay":
		var r api.ReplayReply
		if json.Unmarshal(raw, &r) != nil {
			break
		}
		res := textResult(form(&r, string(raw)), raw)
		if f := r.Failure; f != nil && f.Error != nil {
			return failed(model.Errorf(f.Error.Code, f.Error.Suggestion, "step %d (%s %s) failed: %s", f.Step, f.Action, f.Locator, f.Error.Message), res)
		}
		return res
	}
	return textResult(string(raw), raw)
}

// textResult is a result of text and structured content.
func textResult(text string, structured any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: cut(text)}}, StructuredContent: structured}
}

// textOf is the text form of a reply decoded into v; its JSON when it has none.
func textOf(v any, raw json.RawMessage) string {
	if json.Unmarshal(raw, v) != nil {
		return string(raw)
	}
	return form(v, string(raw))
}

// form is v's text form, or alt.
func form(v any, alt string) string {
	f := textform.Of(v)
	if f == nil {
		return alt
	}
	var b strings.Builder
	if f(&b) != nil {
		return alt
	}
	return b.String()
}

// inspectionHeader is inspect's structured content: the listing's header (snapshot, app,
// window, budget, what was cut or left out, recognised text) and the count of its elements.
// The elements are the text, one a line: as JSON they were 3-5 times its size.
type inspectionHeader struct {
	*model.Inspection
	Elements int `json:"elements"`
}

// inspection is inspect's result; find narrows the listing to a locator's matches. Its ids are
// the ones bare ids name from now on.
func (c *call) inspection(insp *model.Inspection) *mcp.CallToolResult {
	if c.find != nil {
		insp.Elements = c.find.FindIn(insp)
	}
	c.se.listed(insp.SnapshotID)
	return textResult(form(insp, ""), inspectionHeader{insp, len(insp.Elements)})
}

// waitOut is a wait's outcome as structured content: its listing replaced by the id of its
// snapshot (asked for, the listing is in the text, as inspect's).
type waitOut struct {
	*api.WaitResult
	SnapshotID string `json:"snapshot_id,omitempty"`
}

// lean is w without its listing, the snapshot's id kept, and the listing decoded.
func lean(w *api.WaitResult) (*waitOut, *model.Inspection) {
	out := &waitOut{WaitResult: w}
	if w.Snapshot == nil {
		return out, nil
	}
	insp, err := w.Snapshot.Inspection()
	if err != nil || insp == nil {
		return out, nil
	}
	short := *w
	short.Snapshot = nil
	return &waitOut{WaitResult: &short, SnapshotID: insp.SnapshotID}, insp
}

// waited is wait_for's result: an error unless met; with listing, the snapshot that holds the
// match listed after it, whose ids bare ids name from now on.
func (c *call) waited(w *api.WaitResult) *mcp.CallToolResult {
	if w.Error != nil {
		w.Error = inTerms(w.Error, inMCPTerms)
	}
	text := form(w, "")
	out, insp := lean(w)
	if c.listing && insp != nil {
		text += form(insp, "")
		c.se.listed(insp.SnapshotID)
	}
	return failed(unmet(w, "condition", "timeout_ms"), textResult(text, out))
}

// actionOut is an action's reply as structured content: its expect without the listing, nor
// what the agent knows (who asked; the app again).
type actionOut struct {
	*api.ActionReply
	Agent  *api.Identity `json:"agent,omitempty"`
	Expect *waitOut      `json:"expect,omitempty"`
}

// acted is an action's result: an error when its expect was not met, or, without one, when it
// was not done. An expect met is the proof, whatever a step reported; one not met after an
// action not done is that action's failure, its last step saying why.
func acted(r *api.ActionReply) *mcp.CallToolResult {
	for i := range r.Trace {
		r.Trace[i].Message = inMCPTerms(r.Trace[i].Message)
	}
	if r.Expect != nil && r.Expect.Error != nil {
		r.Expect.Error = inTerms(r.Expect.Error, inExpectTerms)
	}
	var why *model.Error
	switch {
	case r.Expect == nil && !r.Done:
		why = notDone(r, "")
	case r.Expect == nil:
	case !r.Done && r.Expect.Outcome != api.WaitMet:
		why = notDone(r, "; expect "+r.Expect.Condition+" "+string(r.Expect.Outcome))
	default:
		why = unmet(r.Expect, "expect", "expect_timeout_ms")
	}
	text := form(r, "") // before the listing goes: the text names the match's snapshot
	out := actionOut{ActionReply: r}
	if r.Expect != nil {
		out.Expect, _ = lean(r.Expect)
		if e := out.Expect.WaitResult; e.App != nil && *e.App == r.App {
			short := *e
			short.App = nil
			out.Expect.WaitResult = &short
		}
	}
	return failed(why, textResult(text, out))
}

// skipped is a trace step's result when the chain did not try it.
const skipped = "skipped"

// notDone is why an action was not done, from the report of the last step it tried (a step
// skipped, as physical input is without policy physical, when it tried none), and then.
func notDone(r *api.ActionReply, then string) *model.Error {
	why := "no step of its chain worked"
	for i := len(r.Trace) - 1; i >= 0; i-- {
		if s := r.Trace[i]; s.Message != "" {
			why = "last step " + s.Step + " " + s.Result + ": " + s.Message
			if s.Result != skipped {
				break
			}
		}
	}
	return inTerms(model.Errorf(model.CodeActionFailed, "", "%s not done (%s)%s", r.Action, why, then), inMCPTerms)
}

// unmet is why a wait (what: its condition, or an action's expect) was not met, with its code
// and what to do; nil when it was. timeoutArg is the argument that gives it longer.
func unmet(w *api.WaitResult, what, timeoutArg string) *model.Error {
	verdict := string(w.Outcome)
	if w.Outcome == api.WaitTimeout {
		verdict = "not met in " + textform.MS(w.ElapsedMS)
	}
	switch {
	case w.Outcome == api.WaitMet:
		return nil
	case w.Error != nil:
		return model.Errorf(w.Error.Code, w.Error.Suggestion, "%s %s %s: %s", what, w.Condition, verdict, w.Error.Message)
	case w.Outcome == api.WaitAppGone:
		return model.Errorf(model.CodeAppGone, "Start it again (launch_app), or find it with list_apps.", "%s %s: the app ended first", what, w.Condition)
	}
	return model.Errorf(model.CodeTimeout, "See what the window shows now (inspect); give a longer "+timeoutArg+" if it is only slow.",
		"%s %s %s", what, w.Condition, verdict)
}

// failed makes r an error result when why is set: the code, the reason and what to do first,
// then the result's own text.
func failed(why *model.Error, r *mcp.CallToolResult) *mcp.CallToolResult {
	if why == nil {
		return r
	}
	r.IsError = true
	tc := r.Content[0].(*mcp.TextContent)
	tc.Text = errorLine(why) + "\n" + tc.Text
	return r
}

// errorLine is an error as an agent reads it: "CODE: message", and the suggestion.
func errorLine(e *model.Error) string {
	line := string(e.Code) + ": " + e.Message
	if e.Suggestion != "" {
		line += "\nsuggestion: " + e.Suggestion
	}
	return line
}

// inTerms is a copy of e with its message and suggestion said in MCP terms by say.
func inTerms(e *model.Error, say func(string) string) *model.Error {
	out := *e
	out.Message, out.Suggestion = say(e.Message), say(e.Suggestion)
	return &out
}

// readText is a read's text, and a last line saying when hidden elements were left out: an agent
// reading the text alone learns that there is more.
func readText(r *model.ReadResult) string {
	if r.HiddenOmitted == 0 {
		return r.Text
	}
	return r.Text + "\n[" + strconv.Itoa(r.HiddenOmitted) + " hidden elements left out; all: true reads them]"
}
