package mcpserver

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/textform"
	"github.com/axbus/axbus/observer"
)

// result is an endpoint's reply as a tool result: the reply whole as structured content, and
// beside it the compact text an agent reads well (an inspection one element a line).
func result(endpoint string, raw json.RawMessage) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: cut(textOf(endpoint, raw))}}, StructuredContent: raw}
}

// textOf is the text form of an endpoint's reply; one without a form is its JSON.
func textOf(endpoint string, raw json.RawMessage) string {
	var v any
	switch {
	case endpoint == "apps":
		v = new(api.AppsReply)
	case endpoint == "windows":
		v = new(api.WindowsReply)
	case endpoint == "inspect":
		v = new(observer.Inspection)
	case endpoint == "wait":
		v = new(api.WaitResult)
	case endpoint == "read":
		var r observer.ReadResult
		if json.Unmarshal(raw, &r) == nil {
			return readText(&r)
		}
	case slices.Contains(api.Actions, endpoint):
		v = new(api.ActionReply)
	}
	if v == nil || json.Unmarshal(raw, v) != nil {
		return string(raw)
	}
	form := textform.Of(v)
	if form == nil {
		return string(raw)
	}
	var b strings.Builder
	if form(&b) != nil {
		return string(raw)
	}
	return b.String()
}

// readText is a read's text, and a last line saying when hidden elements were left out: an agent
// reading the text alone learns that there is more.
func readText(r *observer.ReadResult) string {
	if r.HiddenOmitted == 0 {
		return r.Text
	}
	return r.Text + "\n[" + strconv.Itoa(r.HiddenOmitted) + " hidden elements left out; all: true reads them]"
}
