package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// TestMCPOnTheSimulatedDesktop: the tools' list, a bad argument, events after a cursor and
// their resource, and how the stdio server ends: when stdin closes, when the daemon goes.
func TestMCPOnTheSimulatedDesktop(t *testing.T) {
	d := startTestDaemon(t)
	bin := testdaemon.Axbus(t)
	s, cmd := testdaemon.MCPClient(t, bin, "--state-dir", d.Dir)
	ctx := context.Background()

	list, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		byName[tool.Name] = tool
	}
	for _, name := range []string{"list_apps", "list_windows", "inspect", "read_text", "wait_for", "click", "press", "set_value",
		"type_text", "press_key", "focus", "scroll_to", "select", "toggle", "check", "uncheck", "expand", "collapse",
		"lease_acquire", "lease_release", "events"} {
		tool := byName[name]
		if tool == nil || tool.InputSchema == nil || tool.Annotations == nil || tool.Description == "" {
			t.Fatalf("tool %s: %+v", name, tool)
		}
		if tool.OutputSchema != nil && name != "events" {
			t.Errorf("tool %s has an output schema: a client compiles it on every listing", name)
		}
	}
	if !byName["inspect"].Annotations.ReadOnlyHint || byName["click"].Annotations.ReadOnlyHint ||
		!*byName["set_value"].Annotations.DestructiveHint || *byName["click"].Annotations.DestructiveHint {
		t.Fatal("annotations: inspect read-only, click not destructive, set_value destructive")
	}
	if raw, _ := json.Marshal(byName["click"].InputSchema); !strings.Contains(string(raw), `"expect":{"description"`) || strings.Contains(string(raw), "anyOf") {
		t.Fatalf("click's input schema has no expect as a string, or a combinator: %.300s", raw)
	}

	r := testdaemon.CallTool(t, s, "list_apps", map[string]any{})
	if r.IsError || !strings.Contains(testdaemon.Text(r), "Notes") {
		t.Fatalf("list_apps: %s", testdaemon.Text(r))
	}
	r = testdaemon.CallTool(t, s, "click", map[string]any{"locator": "role=button,name=Save", "app": "Notes", "expect": `text:"Saved"`})
	if r.IsError || !strings.Contains(testdaemon.Text(r), "expect met") {
		t.Fatalf("click by locator: %s", testdaemon.Text(r))
	}
	// What the schema cannot say, the daemon refuses in the tool's terms.
	for _, args := range []map[string]any{{"target": "nonsense"}, {}, {"locator": "role=button,name=Save"}} {
		r = testdaemon.CallTool(t, s, "click", args)
		if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), "BAD_REQUEST: click: ") || !strings.Contains(testdaemon.Text(r), "suggestion: Give target (e12 or SNAPSHOT:e12) or locator with app or pid, not both.") {
			t.Fatalf("click %v: %+v %s", args, r, testdaemon.Text(r))
		}
	}
	r = testdaemon.CallTool(t, s, "window_move", map[string]any{"app": "Notes", "op": "close"})
	if !r.IsError || !strings.Contains(testdaemon.Text(r), `window_move takes no argument "op"`) || !strings.Contains(testdaemon.Text(r), "window_move takes: app, pid, window, x, y.") {
		t.Fatalf("window_move with an op: %s", testdaemon.Text(r))
	}
	r = testdaemon.CallTool(t, s, "events", map[string]any{"colour": "red"})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), "BAD_REQUEST: ") {
		t.Fatalf("events with a bad argument: %s", testdaemon.Text(r))
	}

	// Events after a cursor: the click's are there; from the last cursor, none until a new one.
	page := testdaemon.Structured[eventsPage](t, testdaemon.CallTool(t, s, "events", map[string]any{"app": "Notes"}))
	if len(page.Events) == 0 || page.Cursor == 0 {
		t.Fatalf("events: %+v", page)
	}
	for page.More {
		page = testdaemon.Structured[eventsPage](t, testdaemon.CallTool(t, s, "events", map[string]any{"app": "Notes", "cursor": page.Cursor}))
	}
	// Only what came after it: the demo's clock ticks every 2 s, and may within the wait.
	next := testdaemon.Structured[eventsPage](t, testdaemon.CallTool(t, s, "events", map[string]any{"app": "Notes", "cursor": page.Cursor, "wait_ms": 100}))
	for _, raw := range next.Events {
		var e api.Envelope
		if err := json.Unmarshal(raw, &e); err != nil || e.Element == nil || !strings.HasPrefix(e.Element.Name, "Synced at") {
			t.Fatalf("events after the last cursor (%d): %s", page.Cursor, raw)
		}
	}
	if (len(next.Events) == 0) != (next.Cursor == page.Cursor) {
		t.Fatalf("events after the last cursor: %d events, cursor %d after %d", len(next.Events), next.Cursor, page.Cursor)
	}

	if err := s.Close(); err != nil { // stdin closes: the server ends, exit 0
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil && !strings.Contains(err.Error(), "Wait was already called") {
		t.Fatalf("axbus mcp after stdin closed: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("axbus mcp after stdin closed: %v", cmd.ProcessState)
	}
}

// eventsPage is the events tool's structured result.
type eventsPage struct {
	Events []json.RawMessage `json:"events"`
	Cursor uint64            `json:"cursor"`
	More   bool              `json:"more"`
}

// TestMCPOverHTTPNeedsTheToken: the streamable HTTP transport refuses a request without the
// bearer token, and serves one with it; the token's file is the user's alone.
func TestMCPOverHTTPNeedsTheToken(t *testing.T) {
	d := startTestDaemon(t)
	bin := testdaemon.Axbus(t)
	tokenFile := filepath.Join(t.TempDir(), "mcp.token")
	addr := "127.0.0.1:" + testdaemon.FreePort(t)
	cmd := exec.Command(bin, "mcp", "--state-dir", d.Dir, "--http", addr, "--token-file", tokenFile)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := "http://" + addr + "/"
	// The server listens once its banner is out; wait for the token's file, which comes first.
	var token []byte
	if !testkit.Within(10*time.Second, func() bool {
		b, err := os.ReadFile(tokenFile)
		if err != nil || len(b) == 0 {
			return false
		}
		token = b
		resp, err := http.Get(url)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return true
	}) {
		t.Fatalf("no HTTP server on %s: %s", addr, stderr.String())
	}
	if fi, err := os.Stat(tokenFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v (%v), want 0600", fi.Mode(), err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	for _, auth := range []string{"", "Bearer wrong", "Bearer " + strings.TrimSpace(string(token))} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := http.StatusUnauthorized
		if strings.HasSuffix(auth, strings.TrimSpace(string(token))) && auth != "" {
			want = http.StatusOK
		}
		if resp.StatusCode != want {
			t.Fatalf("Authorization %q: status %d, want %d", auth, resp.StatusCode, want)
		}
	}
	// With the token, the go-sdk's client works end to end.
	client := mcp.NewClient(&mcp.Implementation{Name: "axbus-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearerTransport(strings.TrimSpace(string(token)))}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	r := testdaemon.CallTool(t, session, "list_apps", map[string]any{})
	if r.IsError || !strings.Contains(testdaemon.Text(r), "Notes") {
		t.Fatalf("list_apps over HTTP: %s", testdaemon.Text(r))
	}
	if out, _, code := d.cli(t, "mcp", "--http", "0.0.0.0:0"); code != exitUsage {
		t.Fatalf("a non-loopback address: exit %d %s", code, out)
	}
}

type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPPushesEvents: a client subscribed to axbus://events/notes is sent
// notifications/resources/updated when Notes has an event, and reading the resource gives it.
func TestMCPPushesEvents(t *testing.T) {
	d := startTestDaemon(t)
	bin := testdaemon.Axbus(t)
	updated := make(chan string, 16)
	session := testdaemon.MCPConnect(t, exec.Command(bin, "mcp", "--state-dir", d.Dir), &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI }})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	templates, err := session.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "axbus://events/{app}" {
		t.Fatalf("resource templates: %+v %v", templates, err)
	}
	const uri = "axbus://events/notes"
	if err := session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	if r := testdaemon.CallTool(t, session, "click", map[string]any{"locator": "role=button,name=Save", "app": "Notes"}); r.IsError {
		t.Fatalf("click: %s", testdaemon.Text(r))
	}
	select {
	case got := <-updated:
		if got != uri {
			t.Fatalf("updated %q, want %q", got, uri)
		}
	case <-ctx.Done():
		t.Fatal("no notifications/resources/updated after an event of Notes")
	}
	res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"type":`) {
		t.Fatalf("read %s: %+v %v", uri, res, err)
	}
	if _, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "axbus://nothing"}); err == nil {
		t.Fatal("a resource that does not exist was read")
	}
}
