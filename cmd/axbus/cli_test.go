package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/alecthomas/kong"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
)

// runIn runs one command line in-process, as a shell would, and returns its output and status.
func runIn(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return testdaemon.Capture(run, args...)
}

// TestCommandNames: commands are kebab-case with the endpoints' snake_case names as aliases,
// and flags go anywhere among the arguments.
func TestCommandNames(t *testing.T) {
	d := startTestDaemon(t)
	insp := testdaemon.Decode[model.Inspection](t, must(t, d, "inspect", "--app", "notes"))
	title := ""
	for _, el := range insp.Elements {
		if el.Name == "Title" {
			title = insp.SnapshotID + ":" + el.ID
		}
	}
	for i, name := range []string{"set-value", "set_value"} {
		value := "Plan " + name
		// the flag before, between and after the positional arguments
		args := [][]string{{name, "--expect", `value:` + title[len(insp.SnapshotID)+1:] + `="` + value + `"`, title, value},
			{name, title, "--json", value}}[i]
		out, errOut, code := d.cli(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
		if r := testdaemon.Decode[api.ActionReply](t, out); r.Action != "set_value" || !r.Done {
			t.Fatalf("%s: %s", name, out)
		}
		got := testdaemon.Decode[model.Inspection](t, must(t, d, "inspect", "--app", "notes"))
		for _, el := range got.Elements {
			if el.Name == "Title" && (el.Value == nil || *el.Value != value) {
				t.Fatalf("%s: the title reads %v, want %q", name, el.Value, value)
			}
		}
	}
	if _, errOut, code := d.cli(t, "scroll_to", title); code != 0 {
		t.Fatalf("scroll_to: exit %d: %s", code, errOut)
	}
	if _, errOut, code := d.cli(t, "wait", "--for", "2s", `element:role=button,name=Save`, "--app", "notes"); code != 0 {
		t.Fatalf("wait with flags around its condition: exit %d: %s", code, errOut)
	}
}

func must(t *testing.T, d *testDaemon, args ...string) string {
	t.Helper()
	out, errOut, code := d.cli(t, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// TestNATSHabits: a remote daemon is named as the nats CLI names servers: -s/--server, NATS_URL,
// or a NATS_CONTEXT; --nkey takes an nkey seed file.
func TestNATSHabits(t *testing.T) {
	d := startTestDaemon(t)
	info := d.Server.Info()
	apps := func(args ...string) {
		t.Helper()
		out, errOut, code := runIn(t, args...)
		if code != 0 || len(testdaemon.Decode[api.AppsReply](t, out).Apps) != 2 {
			t.Fatalf("%v: exit %d: %s%s", args, code, out, errOut)
		}
	}
	apps("apps", "-s", info.URL, "--nkey", info.CredsFile)
	apps("apps", "--server", info.URL, "--nkey", info.CredsFile, "--host", "testhost")

	t.Setenv("NATS_URL", info.URL)
	apps("apps", "--nkey", info.CredsFile)

	// Without the credentials the server refuses: the URL was really used.
	if _, errOut, code := runIn(t, "apps"); code != model.CodePermissionDenied.Info().Exit || !strings.Contains(errOut, info.URL) {
		t.Fatalf("NATS_URL without credentials: exit %d: %s", code, errOut)
	}

	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("NATS_URL", "")
	ctxFile := filepath.Join(config, "nats", "context", "desk.json")
	if err := os.MkdirAll(filepath.Dir(ctxFile), 0o700); err != nil {
		t.Fatal(err)
	}
	saved, _ := json.Marshal(map[string]string{"url": info.URL, "nkey": info.CredsFile, "description": "a desktop"})
	if err := os.WriteFile(ctxFile, saved, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NATS_CONTEXT", "desk")
	apps("apps")
	if _, errOut, code := runIn(t, "apps", "--context", "nope"); code != exitUsage || !strings.Contains(errOut, "nats context ls") {
		t.Fatalf("an unknown context: exit %d: %s", code, errOut)
	}
}

// TestHelpIsGenerated: every command has --help, from the same model the parser uses.
func TestHelpIsGenerated(t *testing.T) {
	parser, err := newParser(&bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var visit func(n *kong.Node)
	n := 0
	visit = func(node *kong.Node) {
		for _, c := range node.Children {
			if len(c.Children) > 0 {
				visit(c)
				continue
			}
			path := strings.Fields(c.FullPath())[1:]
			out, errOut, code := runIn(t, append(path, "--help")...)
			if code != 0 || !strings.Contains(out, "Usage: axbus "+strings.Join(path, " ")) || errOut != "" {
				t.Errorf("%v --help: exit %d\n%s%s", path, code, out, errOut)
			}
			n++
		}
	}
	visit(parser.Model.Node)
	if n < 25 {
		t.Fatalf("only %d commands", n)
	}
	if _, errOut, code := runIn(t, "inspect", "--no-such-flag"); code != exitUsage || !strings.Contains(errOut, "--no-such-flag") {
		t.Fatalf("an unknown flag: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runIn(t, "serve", "--backend", "nope"); code != exitUsage || !strings.Contains(errOut, `"auto","atspi","ax","sim"`) {
		t.Fatalf("a value outside the enum: exit %d: %s", code, errOut)
	}
}

// TestBashCompletion: the script bash loads completes commands, flags and enum values.
func TestBashCompletion(t *testing.T) {
	script, errOut, code := runIn(t, "completion", "bash")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	complete := func(words ...string) string {
		t.Helper()
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		prog := script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=" + strconv.Itoa(len(words)-1) +
			"; _axbus; echo \"${COMPREPLY[@]}\""
		out, err := exec.Command("bash", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := complete("axbus", "set"); got != "set-value set_value" {
		t.Errorf("axbus set<TAB>: %q", got)
	}
	if got := complete("axbus", "serve", "--backend", ""); got != "auto atspi ax sim" {
		t.Errorf("axbus serve --backend <TAB>: %q", got)
	}
	if got := complete("axbus", "wait", "--rech"); got != "--recheck" {
		t.Errorf("axbus wait --rech<TAB>: %q", got)
	}
}
