package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// TestReadmeTryIt runs the command lines of the README's "Try it" section as a user would type
// them into a second terminal, against the daemon `make run` starts on a machine without a
// desktop session: the README stays true.
func TestReadmeTryIt(t *testing.T) {
	if err := headless.Available(); err != nil {
		t.Fatalf("the headless desktop needs: %v (make test installs it)", err)
	}
	lines := tryItLines(t, filepath.Join(testdaemon.ModuleRoot(t), "README.md"))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	u := newReadmeUser(t, ctx)
	d := u.serve()

	for _, line := range lines {
		t.Run(line, func(t *testing.T) { u.runLine(t, line) })
		if ctx.Err() != nil {
			t.Fatal("the test ran out of time")
		}
	}

	d.stop(t)
	u.noDemoLeft(t)
}

// tryItLines are the command lines of the "Try it" section's code blocks of the second
// terminal and of the nats CLI, without their comments.
func tryItLines(t *testing.T, readme string) []string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Try it\n")
	if !ok {
		t.Fatal(`README.md has no "## Try it" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var blocks [][]string
	var cur []string
	in, terminal2, t2Block := false, false, -1
	for _, l := range strings.Split(section, "\n") {
		switch {
		case strings.HasPrefix(l, "```"):
			if in {
				blocks = append(blocks, cur)
				cur = nil
			} else if terminal2 && t2Block < 0 {
				t2Block = len(blocks)
			}
			in = !in
		case in:
			if l = stripComment(l); l != "" {
				cur = append(cur, l)
			}
		case strings.HasPrefix(l, "Terminal 2"):
			terminal2 = true
		}
	}
	if t2Block < 0 {
		t.Fatal(`the "Try it" section has no code block after "Terminal 2"`)
	}
	lines := blocks[t2Block]
	for _, b := range blocks {
		if len(b) > 0 && !slices.ContainsFunc(b, func(l string) bool { return !strings.HasPrefix(l, "nats ") }) {
			lines = append(lines, b...)
		}
	}
	if len(lines) == len(blocks[t2Block]) {
		t.Fatal(`the "Try it" section has no block of nats command lines`)
	}
	return lines
}

// stripComment cuts a shell comment off a line: a # that starts a word outside quotes.
func stripComment(line string) string {
	var quote rune
	prev := ' '
	for i, c := range line {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (prev == ' ' || prev == '\t'):
			return strings.TrimSpace(line[:i])
		}
		prev = c
	}
	return strings.TrimSpace(line)
}

// readmeUser is a user with a fresh home, the checkout's bin/axbus and the nats CLI on PATH.
type readmeUser struct {
	t    *testing.T
	ctx  context.Context
	dir  string // the checkout: ./bin/axbus, and HOME
	env  []string
	snap *model.Inspection // the inspection the placeholders' ids come from
	// demo is the program the README starts in the desktop, parent the axbus desktop run of it
	demo, demoParent int
}

func newReadmeUser(t *testing.T, ctx context.Context) *readmeUser {
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "bin", "axbus"), ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// No desktop session, no state dir or NATS settings of the one running the test.
	drop := []string{"DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "XAUTHORITY",
		"XDG_STATE_HOME", "XDG_CONFIG_HOME", "NATS_URL", "NATS_CONTEXT", "HOME", "PATH"}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(drop, k) {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+dir, "PATH="+filepath.Dir(testdaemon.NatsCLI(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	return &readmeUser{t: t, ctx: ctx, dir: dir, env: env}
}

// command is one line run by bash in the checkout, in a process group of its own so that a
// signal reaches what it started.
func (u *readmeUser) command(line string) *exec.Cmd {
	cmd := exec.CommandContext(u.ctx, "bash", "-c", line)
	cmd.Dir, cmd.Env = u.dir, u.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// sh runs a line to its end and fails unless it exits 0.
func (u *readmeUser) sh(t *testing.T, line string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := u.command(line)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstdout: %.2000s\nstderr: %s", line, err, out.String(), errb.String())
	}
	return out.String()
}

// readmeDaemon is `./bin/axbus serve --headless auto`, as `make run` starts it.
type readmeDaemon struct {
	cmd  *exec.Cmd
	log  *testkit.Buffer
	done chan error // nil once stopped
	dir  string
}

func (u *readmeUser) serve() *readmeDaemon {
	t := u.t
	// The README's nats lines name the default port: it must be ours.
	l, err := net.Listen("tcp", "127.0.0.1:4228")
	if err != nil {
		t.Fatalf("127.0.0.1:4228 is taken (an axbus serve of yours?): the README's commands need it: %v", err)
	}
	l.Close()
	cmd := exec.Command("./bin/axbus", "serve", "--headless", "auto")
	cmd.Dir, cmd.Env = u.dir, u.env
	d := &readmeDaemon{cmd: cmd, log: &testkit.Buffer{}, done: make(chan error, 1), dir: filepath.Join(u.dir, ".local", "state", "axbus")}
	ready := make(chan string, 1)
	cmd.Stdout = &lineWriter{line: func(l string) {
		if strings.Contains(l, "client URL:") {
			ready <- l
		}
	}}
	cmd.Stderr = d.log
	cmd.WaitDelay = 10 * time.Second // should a program of its desktop keep its output open
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.done <- cmd.Wait() }()
	t.Cleanup(func() { d.stop(t) })
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the daemon's log:\n%s", d.log.String())
		}
	})
	select {
	case l := <-ready:
		if !strings.Contains(l, "nats://127.0.0.1:4228") {
			t.Fatalf("serve listens elsewhere than the README says: %q", l)
		}
		return d
	case err := <-d.done:
		d.done = nil
		t.Fatalf("serve ended (%v) before its banner said where it listens:\n%s", err, d.log.String())
	case <-time.After(60 * time.Second):
		t.Fatal("no banner from serve within 60 s")
	}
	return nil
}

// stop sends SIGTERM and fails unless the daemon exits 0 and leaves no daemon.json behind.
func (d *readmeDaemon) stop(t *testing.T) {
	if d.done == nil {
		return
	}
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.done:
		d.done = nil
		if err != nil {
			t.Fatalf("serve exited with %v after SIGTERM", err)
		}
	case <-time.After(30 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
		d.done = nil
		t.Fatal("serve did not stop within 30 s of SIGTERM")
	}
	if _, err := os.Stat(filepath.Join(d.dir, "daemon.json")); !os.IsNotExist(err) {
		t.Fatal("serve left daemon.json behind")
	}
}

// lineWriter hands each complete line written to it to line, and keeps them all.
type lineWriter struct {
	mu   sync.Mutex
	part []byte
	all  bytes.Buffer
	line func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(p)
	w.part = append(w.part, p...)
	for {
		i := bytes.IndexByte(w.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		l := string(w.part[:i])
		w.part = w.part[i+1:]
		if w.line != nil {
			w.line(l)
		}
	}
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// placeholder is how the README writes an id an earlier inspect printed.
var placeholder = regexp.MustCompile(`s_1a2b3c4d5e6f:e[0-9]+`)

// readmeTargets stand in for the placeholder, by command: the element of the fixture's window
// that the line's own words are about.
var readmeTargets = map[string]func(model.Element) bool{
	// "one element's subtree, off-screen content included": the list of rows, most of them off screen
	"inspect": func(e model.Element) bool { return e.Role == model.RoleList && e.Children > 0 },
	// --expect 'text:"Saved"': the fixture shows "Saved" when Save is clicked
	"click":     func(e model.Element) bool { return e.Role == model.RoleButton && e.Name == "Save" },
	"set-value": func(e model.Element) bool { return e.Role == model.RoleTextField && e.Name == "Name" },
}

// substitute puts real ids in place of the placeholder, from one inspection of the fixture's
// window taken before the first line that needs one (a later one could be of Save's dialog).
func (u *readmeUser) substitute(t *testing.T, line string, words []string) string {
	if !placeholder.MatchString(line) {
		return line
	}
	pick := readmeTargets[words[1]]
	if pick == nil {
		t.Fatalf("no element stands for the README's placeholder id in %q: add one to readmeTargets", line)
	}
	if u.snap == nil {
		insp := testdaemon.Decode[model.Inspection](t, u.sh(t, "./bin/axbus inspect --app fixture --json"))
		u.snap = &insp
	}
	i := slices.IndexFunc(u.snap.Elements, pick)
	if i < 0 {
		t.Fatalf("the fixture's window has no element for %q", line)
	}
	return placeholder.ReplaceAllString(line, u.snap.SnapshotID+":"+u.snap.Elements[i].ID)
}

// runLine runs one README line and checks what it did.
func (u *readmeUser) runLine(t *testing.T, line string) {
	words := strings.Fields(line)
	switch {
	case words[0] == "nats":
		u.natsLine(t, line, words)
		return
	case words[0] == "eval":
		// the line defines the completion in its shell: ask that shell for it
		out := u.sh(t, line+"\ncomplete -p axbus")
		if !strings.Contains(out, "-F _axbus axbus") {
			t.Fatalf("no completion of axbus defined: %q", out)
		}
		return
	case words[0] != "./bin/axbus" || len(words) < 2:
		t.Fatalf("a README line this test does not know: %q", line)
	}
	line = u.substitute(t, line, words)
	switch words[1] {
	case "tail":
		_ = u.tailLine(t, line, words)
		return
	case "desktop":
		u.desktopRunLine(t, line)
		return
	}
	out := u.sh(t, line)
	switch words[1] {
	case "apps":
		r := testdaemon.Decode[api.AppsReply](t, out)
		if !slices.ContainsFunc(r.Apps, func(a model.App) bool { return a.Name == "axbus-fixture-gtk3" && a.PID > 0 }) {
			t.Fatalf("apps lacks the fixture app: %s", out)
		}
	case "windows":
		if r := testdaemon.Decode[api.WindowsReply](t, out); r.App.Name != "axbus-fixture-gtk3" || len(r.Windows) == 0 {
			t.Fatalf("windows: %s", out)
		}
	case "inspect":
		insp := testdaemon.Decode[model.Inspection](t, out) // JSON: stdout is no terminal
		testdaemon.MustMatch(t, "inspect.reply", []byte(out))
		if !strings.Contains(line, "--scope") {
			if !strings.HasPrefix(insp.SnapshotID, "s_") || find(&insp, model.RoleButton, "Save") == nil {
				t.Fatalf("inspect lacks a snapshot id or the Save button: %.2000s", out)
			}
			return
		}
		items := func(insp *model.Inspection) int {
			n := 0
			for _, e := range insp.Elements {
				if e.Role == model.RoleListItem {
					n++
				}
			}
			return n
		}
		if insp.Scope == nil || insp.Elements[0].Role != model.RoleList || items(&insp) <= items(u.snap) {
			t.Fatalf("the scoped inspection lists %d rows, the window's %d: %.2000s", items(&insp), items(u.snap), out)
		}
	case "screenshot":
		var r screenshotResult
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.ScreenshotReply == nil {
			t.Fatalf("screenshot: %v %s", err, out)
		}
		b, err := os.ReadFile(r.File) // -o is made absolute, from the checkout
		if err != nil || len(b) != r.Bytes || r.Blanked == 0 || r.RecognizedText == nil ||
			!slices.ContainsFunc(r.RecognizedText.Lines, func(l model.RecognizedLine) bool { return strings.Contains(l.Text, "Save") }) {
			t.Fatalf("screenshot: the file (%d bytes, %v) or the reply: %.2000s", len(b), err, out)
		}
	case "read":
		if !strings.Contains(out, "Save") || !strings.Contains(out, "Apples\t3\t1.20") {
			t.Fatalf("read --text: %q", out)
		}
	case "wait":
		if r := testdaemon.Decode[api.WaitResult](t, out); r.Outcome != api.WaitMet {
			t.Fatalf("wait: %s", out)
		}
	case "click", "set-value":
		r := testdaemon.Decode[api.ActionReply](t, out)
		if !r.Done || (words[1] == "click" && (r.Expect == nil || r.Expect.Outcome != api.WaitMet)) {
			t.Fatalf("%s: %.2000s", words[1], out)
		}
		if words[1] == "set-value" && (r.PostState == nil || r.PostState.Value == nil || *r.PostState.Value != "Ada Lovelace") {
			t.Fatalf("set-value: the field does not read back the value: %s", out)
		}
	case "launch":
		if r := testdaemon.Decode[api.LaunchReply](t, out); r.App.PID <= 0 || r.App.Name != words[2] {
			t.Fatalf("launch: %s", out)
		}
	case "quit":
		if r := testdaemon.Decode[api.QuitReply](t, out); r.App.Name != words[3] || r.EndedMS <= 0 {
			t.Fatalf("quit: %s", out)
		}
	case "window", "activate":
		r := testdaemon.Decode[api.WindowReply](t, out)
		if r.After == nil || (words[1] == "window" && !r.After.Minimized) || (words[1] == "activate" && (!r.After.Focused || r.After.Minimized)) {
			t.Fatalf("%s: %s", words[1], out)
		}
	case "clipboard":
		if r := testdaemon.Decode[api.ClipboardReply](t, out); r.Text != "Grüße ✓" {
			t.Fatalf("clipboard: %s", out)
		}
	case "fixture":
		var r struct{ OK bool }
		if err := json.Unmarshal([]byte(out), &r); err != nil || !r.OK {
			t.Fatalf("fixture: %q", out)
		}
	case "status":
		if r := testdaemon.Decode[api.StatusReply](t, out); r.Backend != "atspi" || r.Events.Published == 0 {
			t.Fatalf("status: %s", out)
		}
	case "doctor":
		if !strings.Contains(out, "ok    daemon") || strings.Contains(out, "FAIL") {
			t.Fatalf("doctor:\n%s", out)
		}
	case "schema":
		if !json.Valid([]byte(out)) || !strings.Contains(out, `"urn:axbus:`+words[2]+`"`) {
			t.Fatalf("schema: %.500s", out)
		}
	case "console": // the URL opens the page, as a browser would with its cookie
		r := testdaemon.Decode[api.ConsoleReply](t, out)
		jar, _ := cookiejar.New(nil)
		page, err := (&http.Client{Jar: jar, Timeout: 5 * time.Second}).Get(r.URL)
		if err != nil {
			t.Fatalf("console %s: %v", r.URL, err)
		}
		body, _ := io.ReadAll(page.Body)
		page.Body.Close()
		if page.StatusCode != http.StatusOK || !strings.Contains(string(body), "axbus console") {
			t.Fatalf("the console's URL %s: %d %.200s", r.URL, page.StatusCode, body)
		}
	default:
		t.Fatalf("no check for the README's %q: add one", line)
	}
}

// tailLine runs a tail until it prints an event, then interrupts it as a user's ^C would. A
// live tail gets one from the fixture, toggled until one comes (the tail may not be
// subscribed yet when the first toggle happens); a tail from history has them already.
func (u *readmeUser) tailLine(t *testing.T, line string, words []string) api.Envelope {
	live := !slices.ContainsFunc(words, func(w string) bool { return w == "--since" || w == "--all" || w == "--last" })
	cmd := u.command(line)
	lines := make(chan string, 1)
	out := &lineWriter{line: func(l string) {
		select {
		case lines <- l:
		default: // the first one is the one checked
		}
	}}
	var errb testkit.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var first string
	deadline := time.After(30 * time.Second)
	for first == "" {
		var retry <-chan time.Time
		if live {
			u.sh(t, "./bin/axbus fixture toggle")
			retry = time.After(time.Second)
		}
		select {
		case first = <-lines:
		case <-retry:
		case err := <-done:
			t.Fatalf("%s ended (%v) before it printed an event; stderr: %s", line, err, errb.String())
		case <-deadline:
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Fatalf("%s printed no event within 30 s; stderr: %s", line, errb.String())
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		t.Fatalf("%s did not end within 10 s of SIGINT", line)
	}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGINT) {
		t.Fatalf("%s after SIGINT: %v; stderr: %s", line, err, errb.String())
	}
	env := testdaemon.Decode[api.Envelope](t, first) // JSON: stdout is no terminal
	testdaemon.MustMatch(t, "event", []byte(first))
	if len(words) > 2 && !strings.HasPrefix(words[2], "-") && env.App.Name != words[2] {
		t.Fatalf("%s printed an event of %s", line, env.App.Name)
	}
	return env
}

// desktopRunLine runs `./bin/axbus desktop run PROGRAM &` and waits until the program's app
// shows in apps. The line's shell ends at once; the program runs on.
func (u *readmeUser) desktopRunLine(t *testing.T, line string) {
	log, err := os.Create(filepath.Join(t.TempDir(), "desktop-run.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := u.command(line)
	cmd.Stdout, cmd.Stderr = log, log // a file, not a pipe the program would keep open
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	program := strings.Fields(strings.TrimSuffix(line, "&"))[3]
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := testdaemon.Decode[api.AppsReply](t, u.sh(t, "./bin/axbus apps --json"))
		if i := slices.IndexFunc(r.Apps, func(a model.App) bool { return strings.Contains(a.Name, program) }); i >= 0 {
			u.demo = r.Apps[i].PID
			_, _, u.demoParent, _ = procParent(u.demo)
			parent, _, _, _ := procParent(u.demoParent)
			t.Logf("%s runs as pid %d, started by %s (pid %d)", program, u.demo, parent, u.demoParent)
			return
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(log.Name())
			t.Fatalf("%s: no app %s within 30 s; apps: %+v; its output: %s", line, program, r.Apps, out)
		}
		select {
		case <-time.After(200 * time.Millisecond): // polling apps: no event says an app registered
		case <-u.ctx.Done():
			t.Fatal(u.ctx.Err())
		}
	}
}

// noDemoLeft checks that the program the README started in the desktop (and the axbus desktop
// run waiting for it) ended with the daemon.
func (u *readmeUser) noDemoLeft(t *testing.T) {
	if u.demo == 0 {
		t.Fatal("the README started no program in the desktop: nothing to check")
	}
	for _, pid := range []int{u.demo, u.demoParent} {
		var name string
		if !testkit.Within(10*time.Second, func() bool { // polling /proc: a process not ours to wait for
			n, state, _, ok := procParent(pid)
			name = n
			return !ok || state == 'Z'
		}) {
			t.Fatalf("%s (pid %d) outlived the daemon", name, pid)
		}
	}
}

// procParent reads a process's name, state and parent from /proc.
func procParent(pid int) (name string, state byte, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, 0, false
	}
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[end+1:]))
	if open < 0 || end < open || len(f) < 2 {
		return "", 0, 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	return string(b[open+1 : end]), f[0][0], ppid, true
}

// natsLine runs a line of the nats CLI; a sub gets an event from the fixture once it said it
// subscribed.
func (u *readmeUser) natsLine(t *testing.T, line string, words []string) {
	if !slices.Contains(words, "sub") {
		out := u.sh(t, line)
		switch {
		case slices.Contains(words, "micro"):
			if !strings.Contains(out, "axbus") {
				t.Fatalf("micro ls lacks axbus:\n%s", out)
			}
		case slices.Contains(words, "req"):
			if insp := testdaemon.Decode[model.Inspection](t, strings.TrimSpace(out)); insp.App.Name != "axbus-fixture-gtk3" {
				t.Fatalf("req inspect: %.2000s", out)
			}
		default:
			t.Fatalf("no check for the README's %q: add one", line)
		}
		return
	}
	cmd := u.command(line)
	subscribed := make(chan struct{})
	var once sync.Once
	var out testkit.Buffer
	errw := &lineWriter{line: func(l string) {
		if strings.Contains(l, "Subscribing on") {
			once.Do(func() { close(subscribed) })
		}
	}}
	cmd.Stdout, cmd.Stderr = &out, errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timeout := time.After(30 * time.Second)
	var err error
	select {
	case <-subscribed:
		// It says so just before it subscribes: toggle until an event reached it.
		for ended := false; !ended; {
			u.sh(t, "./bin/axbus fixture toggle")
			select {
			case err = <-done:
				ended = true
			case <-time.After(time.Second): // toggle again
			case <-timeout:
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done
				t.Fatalf("%s did not end within 30 s", line)
			}
		}
	case err = <-done:
		t.Fatalf("%s ended (%v) before it subscribed: %s", line, err, errw.String())
	case <-timeout:
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		t.Fatalf("%s did not subscribe within 30 s: %s", line, errw.String())
	}
	if err != nil || !strings.Contains(out.String(), "Received on") {
		t.Fatalf("%s: %v\nstdout: %.2000s\nstderr: %s", line, err, out.String(), errw.String())
	}
}
