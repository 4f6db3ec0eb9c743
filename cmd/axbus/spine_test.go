package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go/micro"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer/sim"
)

func TestAppsWindowsInspectStatusThroughTheCLI(t *testing.T) {
	d := startTestDaemon(t)

	out, errOut, code := d.cli(t, "apps")
	if code != 0 {
		t.Fatalf("apps: exit %d: %s", code, errOut)
	}
	testdaemon.MustMatch(t, "apps.reply", []byte(out))
	apps := testdaemon.Decode[api.AppsReply](t, out)
	var notes *model.App
	for i := range apps.Apps {
		if apps.Apps[i].Name == "Notes" {
			notes = &apps.Apps[i]
		}
	}
	if notes == nil || notes.PID != 501 || notes.Generation == 0 {
		t.Fatalf("apps lacks Notes with pid 501 and a generation: %s", out)
	}

	out, errOut, code = d.cli(t, "windows", "--app", "notes")
	if code != 0 {
		t.Fatalf("windows: exit %d: %s", code, errOut)
	}
	testdaemon.MustMatch(t, "windows.reply", []byte(out))
	if w := testdaemon.Decode[api.WindowsReply](t, out); len(w.Windows) == 0 || w.App.PID != 501 {
		t.Fatalf("windows of Notes: %s", out)
	}

	out, errOut, code = d.cli(t, "inspect", "--pid", "501")
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, errOut)
	}
	testdaemon.MustMatch(t, "inspect.reply", []byte(out))
	insp := testdaemon.Decode[model.Inspection](t, out)
	if !strings.HasPrefix(insp.SnapshotID, "s_") || len(insp.Elements) == 0 || insp.Elements[0].ID != "e0" {
		t.Fatalf("inspect reply: %s", out)
	}
	if insp.Elements[0].Role != model.RoleWindow || insp.App.PID != 501 {
		t.Fatalf("first element %+v, app %+v", insp.Elements[0], insp.App)
	}
	var save bool
	for _, e := range insp.Elements {
		save = save || (e.Role == model.RoleButton && e.Name == "Save")
		if e.Secure && e.Value != nil {
			t.Fatalf("secure field listed with a value: %+v", e)
		}
	}
	if !save {
		t.Fatalf("the Save button is not listed")
	}

	out, _, code = d.cli(t, "snapshot-check-unused") // an unknown command
	if code != exitUsage || out != "" {
		t.Fatalf("unknown command: exit %d", code)
	}

	out, errOut, code = d.cli(t, "status")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errOut)
	}
	testdaemon.MustMatch(t, "status.reply", []byte(out))
	st := testdaemon.Decode[api.StatusReply](t, out)
	if st.Host != "testhost" || st.Snapshots.Count != 1 || st.Backend != "sim" {
		t.Fatalf("status: %s", out)
	}
	// the daemon's process and what the simulated desktop holds (routes.go wires its report)
	if p := st.Process; p == nil || p.Goroutines <= 0 || runtime.GOOS == "linux" && (p.RSSBytes == 0 || p.FDs <= 0) || st.Resources["apps"] == 0 {
		t.Fatalf("status without the process or the backend's resources: %s", out)
	}
}

func TestSchemaCommand(t *testing.T) {
	schema := func(args ...string) (string, int) {
		var out, errb strings.Builder
		code := run(context.Background(), append([]string{"schema"}, args...), &out, &errb)
		return out.String(), code
	}
	out, code := schema("inspect.request")
	if code != 0 || !json.Valid([]byte(out)) || !strings.Contains(out, `"urn:axbus:inspect.request"`) || !strings.HasSuffix(out, "}\n") {
		t.Fatalf("schema inspect.request: exit %d %s", code, out)
	}
	out, code = schema()
	if code != 0 || !strings.Contains(out, "event\n") {
		t.Fatalf("schema list: %s", out)
	}
	if _, code = schema("nope"); code != exitUsage {
		t.Fatalf("unknown schema: exit %d", code)
	}
}

// TestBadInputGetsClearErrors sends what a careless or hostile client might, straight over
// NATS, and checks each answer: the micro error headers, our code and a suggestion; then the
// daemon still serves.
func TestBadInputGetsClearErrors(t *testing.T) {
	d := startTestDaemon(t)
	nc := d.Connect(t)
	endpoint := d.Subjects.Endpoint
	for _, c := range []struct {
		name, subject string
		body          []byte
		code          model.Code
		status        string
	}{
		{"malformed JSON", endpoint("inspect"), []byte(`{"app": "Notes"`), model.CodeBadRequest, "400"},
		{"unknown field", endpoint("inspect"), []byte(`{"app": "Notes", "depth": 3}`), model.CodeBadRequest, "400"},
		{"wrong type", endpoint("windows"), []byte(`{"pid": "501"}`), model.CodeBadRequest, "400"},
		{"2 MB request", endpoint("inspect"), []byte(`{"app": "` + strings.Repeat("N", 2<<20) + `"}`), model.CodePayloadTooLarge, "413"},
		{"unknown app", endpoint("inspect"), []byte(`{"app": "NoSuchApp"}`), model.CodeAppNotFound, "404"},
		{"unknown pid", endpoint("windows"), []byte(`{"pid": 4242}`), model.CodeAppNotFound, "404"},
		{"unknown snapshot", endpoint("snapshot"), []byte(`{"snapshot_id": "s_000000000000"}`), model.CodeSnapshotExpired, "410"},
		{"bad element id", endpoint("snapshot"), []byte(`{"snapshot_id": "s_0", "element": "12"}`), model.CodeBadRequest, "400"},
	} {
		start := time.Now()
		msg, err := nc.Request(c.subject, c.body, 5*time.Second)
		if err != nil {
			t.Fatalf("%s: no reply: %v", c.name, err)
		}
		if time.Since(start) > 2*time.Second {
			t.Errorf("%s: the reply took %v", c.name, time.Since(start))
		}
		if msg.Header.Get(micro.ErrorCodeHeader) != c.status || msg.Header.Get(micro.ErrorHeader) == "" {
			t.Errorf("%s: headers %v, want status %s and a message", c.name, msg.Header, c.status)
		}
		testdaemon.MustMatch(t, "error", msg.Data)
		var body api.ErrorBody
		if err := json.Unmarshal(msg.Data, &body); err != nil || body.Error.Code != c.code || body.Error.Suggestion == "" {
			t.Errorf("%s: body %s, want code %s with a suggestion", c.name, msg.Data, c.code)
		}
	}
	// still serving
	if msg, err := nc.Request(endpoint("apps"), nil, 5*time.Second); err != nil || msg.Header.Get(micro.ErrorCodeHeader) != "" {
		t.Fatalf("daemon stopped serving after bad input: %v", err)
	}
	// the CLI maps the codes to documented exit statuses, one line on stderr
	_, errOut, code := d.cli(t, "inspect", "--app", "NoSuchApp")
	if code != exitNotFound || !strings.Contains(testdaemon.OneLine(t, errOut), "APP_NOT_FOUND") {
		t.Fatalf("inspect NoSuchApp: exit %d, %q", code, errOut)
	}
	if _, _, code = d.cli(t, "inspect"); code != exitUsage {
		t.Fatalf("inspect with no app: exit %d, want %d", code, exitUsage)
	}
}

// Errors repeat at most ~200 bytes of any input, marked as cut: a 900 KB id must not come back
// as 900 KB in a header and again in the body.
func TestErrorsEchoLongInputCut(t *testing.T) {
	d := startTestDaemon(t)
	nc := d.Connect(t)
	long := strings.Repeat("x", 900<<10)
	for _, c := range []struct{ endpoint, body string }{
		{"inspect", `{"scope": "s_0123456789ab:` + long + `"}`},
		{"inspect", `{"app": "` + long + `"}`},
		{"read", `{"scope": "` + long + `"}`},
		{"windows", `{"app": "Notes", "window": "` + long + `"}`},
		{"wait", `{"expr": "text:\"` + long + `", "app": "Notes"}`},
		{"wait", `{"expr": "text:\"a\"", "app": "Notes", "snapshot": "` + long + `"}`},
		{"click", `{"target": "` + long + `"}`},
		{"key", `{"keys": "` + long + `", "app": "Notes"}`},
	} {
		msg, err := nc.Request(d.Subjects.Endpoint(c.endpoint), []byte(c.body), 10*time.Second)
		if err != nil {
			t.Fatalf("%s: no reply: %v", c.endpoint, err)
		}
		var body api.ErrorBody
		if err := json.Unmarshal(msg.Data, &body); err != nil || body.Error == nil {
			t.Fatalf("%s: not an error: %.300s", c.endpoint, msg.Data)
		}
		header := msg.Header.Get(micro.ErrorHeader)
		if len(header) > 1200 || len(msg.Data) > 4<<10 || strings.Count(string(msg.Data), "x") > 3*model.MaxEcho {
			t.Errorf("%s: header %d bytes, body %d bytes: %.400s", c.endpoint, len(header), len(msg.Data), msg.Data)
		}
		if strings.Contains(body.Error.Message, "xxxxxxxxxx") && !strings.Contains(body.Error.Message, "[cut: ") {
			t.Errorf("%s: a cut echo is not marked: %.400s", c.endpoint, body.Error.Message)
		}
	}
}

// TestNatsCLI drives the daemon with the real nats CLI, a client nobody here wrote.
func TestNatsCLI(t *testing.T) {
	d := startTestDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	out, err := d.NatsRun(t, ctx, "micro", "ls")
	if err != nil || !strings.Contains(out, "axbus") {
		t.Fatalf("nats micro ls: %v\n%s", err, out)
	}
	out, err = d.NatsRun(t, ctx, "micro", "info", "axbus")
	if err != nil {
		t.Fatalf("nats micro info: %v\n%s", err, out)
	}
	for _, ep := range []string{"apps", "windows", "inspect", "read", "snapshot", "status"} {
		if !strings.Contains(out, d.Subjects.Endpoint(ep)) {
			t.Errorf("nats micro info lacks endpoint %s:\n%s", ep, out)
		}
	}

	out, err = d.NatsRun(t, ctx, "req", "--raw", d.Subjects.Endpoint("inspect"), `{"app":"notes"}`)
	if err != nil {
		t.Fatalf("nats req inspect: %v\n%s", err, out)
	}
	testdaemon.MustMatch(t, "inspect.reply", []byte(out))

	// nats sub sees the simulated desktop's events (on a wildcard of events alone: one that
	// covers ax.<host>.snap.<app> too would get the polled diffs it makes the daemon publish)
	saved := d.Subjects.Event("Notes", string(model.EventChildrenChanged))
	before := d.Server.Interest(saved)
	sub := exec.CommandContext(ctx, testdaemon.NatsCLI(t), "--server", d.Server.Info().URL, "--nkey", d.Server.Info().CredsFile,
		"sub", "--raw", "--count", "1", d.Subjects.Prefix+".*.evt.>")
	sub.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
	stdout, err := sub.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Start(); err != nil {
		t.Fatal(err)
	}
	line := testdaemon.FirstJSONLine(stdout)
	// --raw prints no "Subscribing on", which comes before it subscribes anyway: ask the server
	testkit.Eventually(t, 10*time.Second, "the nats CLI's subscription", func() bool { return d.Server.Interest(saved) > before })
	pressSave(t, d)
	select {
	case l, ok := <-line:
		if !ok {
			t.Fatal("nats sub ended without an event")
		}
		testdaemon.MustMatch(t, "event", []byte(l))
	case <-time.After(10 * time.Second):
		t.Fatal("nats sub saw no event in 10 s")
	}
	_ = sub.Wait()
}

// pressSave presses the demo's Save button through the backend, as an agent's command would.
func pressSave(t *testing.T, d *testDaemon) {
	t.Helper()
	desk := d.Backend.(*sim.Desktop)
	if err := desk.Perform(context.Background(), desk.Ref(501, "save"), "AXPress"); err != nil {
		t.Fatalf("press Save: %v", err)
	}
}

func TestTailSeesLiveAndPastEvents(t *testing.T) {
	d := startTestDaemon(t)
	nc := d.Connect(t)
	cl := testdaemon.Client(t, nc)
	if cl.Host() != "testhost" {
		t.Fatalf("discovered host %q", cl.Host())
	}
	// The tail starts once the sheet and the label were published: it reads them from history.
	live, err := nc.SubscribeSync(d.Subjects.Events("notes", ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	pressSave(t, d) // "Saved" appears and a sheet opens 200 ms later
	published := map[model.EventType]bool{}
	for !published[model.EventDialogOpened] || !published[model.EventChildrenChanged] {
		msg, err := live.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatalf("the sheet and the label were not published (saw %v): %v", published, err)
		}
		var env api.Envelope
		if err := json.Unmarshal(msg.Data, &env); err != nil {
			t.Fatal(err)
		}
		published[env.Type] = true
	}
	if err := live.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	events, err := cl.Tail(ctx, client.TailOptions{App: "notes", All: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[model.EventType]bool{}
	for env := range events {
		raw, _ := json.Marshal(env)
		testdaemon.MustMatch(t, "event", raw)
		if env.Host != "testhost" || env.App.PID != 501 || env.Seq == 0 {
			t.Fatalf("envelope %s", raw)
		}
		seen[env.Type] = true
		if seen[model.EventDialogOpened] && seen[model.EventChildrenChanged] {
			cancel()
		}
	}
	if !seen[model.EventDialogOpened] || !seen[model.EventChildrenChanged] {
		t.Fatalf("history lacks the sheet and the new label: saw %v", seen)
	}
}

func TestNoDaemonSaysHowToStartOne(t *testing.T) {
	var out, errb strings.Builder
	code := run(context.Background(), []string{"apps", "--state-dir", t.TempDir()}, &out, &errb)
	line := testdaemon.OneLine(t, errb.String())
	if code != exitUnavailable || !strings.Contains(line, "axbus serve") {
		t.Fatalf("exit %d, stderr %q", code, line)
	}
}

func TestSecondServeRefusesAndDamagesNothing(t *testing.T) {
	d := startTestDaemon(t)
	before, err := os.ReadFile(filepath.Join(d.Dir, "daemon.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	code := run(context.Background(), []string{"serve", "--backend", "sim", "--state-dir", d.Dir, "--listen", "127.0.0.1:0"}, &out, &errb)
	if code != exitAlreadyRunning || !strings.Contains(errb.String(), "already running at "+d.Server.ClientURL()) {
		t.Fatalf("second serve: exit %d, %q", code, errb.String())
	}
	after, _ := os.ReadFile(filepath.Join(d.Dir, "daemon.json"))
	if string(before) != string(after) {
		t.Fatal("the second serve changed daemon.json")
	}
	if _, _, code := d.cli(t, "apps"); code != 0 {
		t.Fatal("the first daemon stopped serving")
	}
}

func TestBusyPortIsAClearError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var out, errb strings.Builder
	code := run(context.Background(), []string{"serve", "--backend", "sim", "--state-dir", t.TempDir(), "--listen", l.Addr().String()}, &out, &errb)
	if code != exitAddressInUse || !strings.Contains(errb.String(), l.Addr().String()) {
		t.Fatalf("busy port: exit %d, %q", code, errb.String())
	}
}

// TestServeStopsCleanlyOnSignals runs the real binary and stops it with SIGINT and SIGTERM.
func TestServeStopsCleanlyOnSignals(t *testing.T) {
	bin := testdaemon.Axbus(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		cmd := exec.Command(bin, "serve", "--backend", "sim", "--state-dir", dir, "--listen", "127.0.0.1:0", "--log-level", "warn")
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		ready := false
		for sc.Scan() {
			if strings.Contains(sc.Text(), "client URL:") {
				ready = true
				break
			}
		}
		if !ready {
			_ = cmd.Process.Kill()
			t.Fatal("serve never said it was ready")
		}
		go func() {
			for sc.Scan() {
			}
		}()
		if _, err := embedded.Discover(dir); err != nil {
			t.Fatalf("running daemon not discoverable: %v", err)
		}
		_ = cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%v: serve exited with %v", sig, err)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: serve did not stop in 10 s", sig)
		}
		if _, err := os.Stat(filepath.Join(dir, "daemon.json")); !os.IsNotExist(err) {
			t.Fatalf("%v: daemon.json left behind", sig)
		}
		if _, err := embedded.Discover(dir); err == nil {
			t.Fatalf("%v: a stopped daemon is still discoverable", sig)
		}
	}
}

// TestEventsAreNamedInTheirBody: host, boot and seq in the envelope, no headers to parse.
func TestEventsAreNamedInTheirBody(t *testing.T) {
	d := startTestDaemon(t)
	nc := d.Connect(t)
	sub, err := nc.SubscribeSync(d.Subjects.Events("notes", ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	pressSave(t, d)
	msg, err := sub.NextMsg(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var env api.Envelope
	if err := json.Unmarshal(msg.Data, &env); err != nil {
		t.Fatal(err)
	}
	if env.Host != "testhost" || env.Boot == "" || env.Seq == 0 || len(msg.Header) != 0 {
		t.Fatalf("event %s with headers %v: want host, boot and seq in the body, no headers", msg.Data, msg.Header)
	}
	if msg.Subject != d.Subjects.Event("Notes", string(env.Type)) {
		t.Fatalf("subject %s for a %s event", msg.Subject, env.Type)
	}
}
