package testdaemon

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPClient runs `axbus mcp` (the built binary, args after it) with the go-sdk's own client
// over its CommandTransport, and closes the session with the test.
func MCPClient(t *testing.T, bin string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Stderr = os.Stderr
	return MCPConnect(t, cmd, nil), cmd
}

// MCPConnect connects the go-sdk's client (with opts) to the MCP server cmd runs.
func MCPConnect(t *testing.T, cmd *exec.Cmd, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "axbus-test", Version: "0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = session.Close() })
	return session
}

// CallTool calls a tool and returns its result, failing on a protocol error, or on an error
// result whose advice is not in MCP terms.
func CallTool(t *testing.T, s *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if r.IsError {
		CheckMCPTerms(t, name, Text(r))
	}
	return r
}

// CheckMCPTerms fails when what an agent read names a flag or a command of the CLI, which it
// has not: its advice must name tools and their arguments. A program a person runs (serve,
// doctor) may be named.
func CheckMCPTerms(t *testing.T, tool, read string) {
	t.Helper()
	if flag := regexp.MustCompile(`(^|[\s('"])--[a-z]`).FindString(read); flag != "" {
		t.Errorf("%s: an agent was told of a CLI flag (%q): %s", tool, flag, read)
	}
	commands := cliCommands(t)
	for _, m := range regexp.MustCompile(`axbus ([a-z_-]+)`).FindAllStringSubmatch(read, -1) {
		if commands[m[1]] && m[1] != "serve" && m[1] != "doctor" {
			t.Errorf("%s: an agent was told of a CLI command (%q): %s", tool, m[0], read)
		}
	}
}

// cli is the command names of the axbus binary and their aliases, read once from its help.
var cli struct {
	once     sync.Once
	commands map[string]bool
	err      error
}

// cliCommands names the commands of the axbus binary (Axbus) and their aliases, as its help
// lists them: "  name (alias)    what it does".
func cliCommands(t testing.TB) map[string]bool {
	t.Helper()
	bin := Axbus(t)
	cli.once.Do(func() {
		out, err := exec.Command(bin, "--help").Output()
		if err != nil {
			cli.err = err
			return
		}
		cli.commands = map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^  ([a-z][a-z-]*)(?: \(([a-z_]+)\))?(?:  |$)`).FindAllStringSubmatch(string(out), -1) {
			cli.commands[m[1]] = true
			if m[2] != "" {
				cli.commands[m[2]] = true
			}
		}
	})
	if cli.err != nil || len(cli.commands) < 20 {
		t.Fatalf("axbus --help: %v, %d commands read", cli.err, len(cli.commands))
	}
	return cli.commands
}

// Text is a result's text contents, one after another.
func Text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}

// Structured decodes a result's structured content into a T.
func Structured[T any](t *testing.T, r *mcp.CallToolResult) T {
	t.Helper()
	var v T
	raw, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	return v
}

// EventsResult is the events tool's structured result, each entry with its run's count.
type EventsResult struct {
	Events []struct {
		api.Envelope
		Count int `json:"count"`
	} `json:"events"`
	Cursor   uint64 `json:"cursor"`
	More     bool   `json:"more"`
	Excluded int    `json:"excluded"`
	Earlier  int    `json:"earlier"`
}

// EventCount is how many events the entries stand for.
func (r *EventsResult) EventCount() int {
	n := 0
	for _, e := range r.Events {
		n += max(e.Count, 1)
	}
	return n
}

// TextCursor is the cursor an events text ends with: its last line names it, and more when more follow.
var TextCursor = regexp.MustCompile(`; cursor (\d+)(; more follow: call again with this cursor)?$`)

// EventsCall calls the events tool, and checks what every page must show: no error, and a text
// that fits 32 KiB and ends with the structured result's cursor and more.
func EventsCall(t *testing.T, s *mcp.ClientSession, args map[string]any) (string, EventsResult) {
	t.Helper()
	r := CallTool(t, s, "events", args)
	text := strings.TrimSuffix(Text(r), "\n")
	if r.IsError {
		t.Fatalf("events %v: %s", args, text)
	}
	page := Structured[EventsResult](t, r)
	m := TextCursor.FindStringSubmatch(text)
	if len(text) > 32<<10 || m == nil || m[1] != strconv.FormatUint(page.Cursor, 10) || (m[2] != "") != page.More {
		t.Fatalf("events %v: %d bytes of text, cursor %d, more %v; the text ends %q", args, len(text), page.Cursor, page.More, text[max(len(text)-300, 0):])
	}
	return text, page
}

// EventsEnd is the cursor after app's last event now: pages of every kind until no more follow.
func EventsEnd(t *testing.T, s *mcp.ClientSession, app string) uint64 {
	t.Helper()
	var cursor uint64
	for {
		_, page := EventsCall(t, s, map[string]any{"app": app, "cursor": cursor, "exclude": []string{}, "limit": 1000})
		if cursor = page.Cursor; !page.More {
			return cursor
		}
	}
}

// StoredAfter waits until the stream holds n events of app after cursor that pred accepts, and
// returns every event it read meanwhile (as the bus reads them: not coalesced, none left out).
func StoredAfter(t *testing.T, c *client.Client, app string, cursor uint64, n int, pred func(*api.Envelope) bool) []api.Envelope {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var read []api.Envelope
	for matched := 0; matched < n; {
		p, err := c.EventsAfter(ctx, cursor, 1000, time.Second, client.TailOptions{App: app})
		if err != nil || ctx.Err() != nil {
			t.Fatalf("%d of %d events of %s after %d stored: %v %v", matched, n, app, cursor, err, ctx.Err())
		}
		for _, e := range p.Events {
			if read = append(read, e.Event); pred(&e.Event) {
				matched++
			}
		}
		cursor = p.Cursor
	}
	return read
}

// ErrorOf is a tool error's code and its JSON body's error.
func ErrorOf(t *testing.T, r *mcp.CallToolResult) *model.Error {
	t.Helper()
	if !r.IsError || len(r.Content) < 2 {
		t.Fatalf("want a tool error, got %s", Text(r))
	}
	var body api.ErrorBody
	if err := json.Unmarshal([]byte(r.Content[1].(*mcp.TextContent).Text), &body); err != nil || body.Error == nil {
		t.Fatalf("the error's JSON: %v %s", err, Text(r))
	}
	return body.Error
}

// IDOf is the id of the first line of a listing's text that names role and name (`e2 button
// "Save"`), or "".
func IDOf(listing, role, name string) string {
	m := regexp.MustCompile(`(?m)^\s*(e\d+) ` + role + ` "` + regexp.QuoteMeta(name) + `"`).FindStringSubmatch(listing)
	if m == nil {
		return ""
	}
	return m[1]
}

// StructuredOf is a result's structured content as JSON; StructuredBytes its size.
func StructuredOf(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	return string(MustJSON(t, r.StructuredContent))
}

func StructuredBytes(t *testing.T, r *mcp.CallToolResult) int { return len(StructuredOf(t, r)) }
