package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer/sim"
)

// On a terminal inspect prints a header and one element a line, indented two spaces for each
// printed ancestor (unnamed containers are folded away, and the header counts them); piped, or
// with --json, one JSON document.
func TestTTYInspectIsCompact(t *testing.T) {
	d := startTestDaemon(t)

	piped, errOut, code := d.cli(t, "inspect", "--app", "notes")
	if code != 0 {
		t.Fatalf("inspect piped: exit %d: %s", code, errOut)
	}
	insp := oneInspection(t, piped)
	parent := map[string]string{}
	for _, e := range insp.Elements {
		parent[e.ID] = e.Parent
	}

	lines := d.OnTTY(t, run, "inspect", "--app", "notes")
	header := regexp.MustCompile(`^snapshot s_[0-9a-f]{12}: Notes \(pid 501\), window "Notes": (\d+) elements, (\d+) folded`)
	h := header.FindStringSubmatch(strings.Join(lines[:min(1, len(lines))], ""))
	if h == nil {
		t.Fatalf("no header line: %q", lines)
	}
	folded, _ := strconv.Atoi(h[2])
	if h[1] != strconv.Itoa(len(insp.Elements)) || folded == 0 || len(lines) != 1+len(insp.Elements)-folded {
		t.Fatalf("%d lines for %d elements, %d folded:\n%s", len(lines), len(insp.Elements), folded, strings.Join(lines, "\n"))
	}
	element := regexp.MustCompile(`^( *)(e\d+) ([a-z_]+)`)
	printed := map[string]bool{}
	save := false
	for _, l := range lines[1:] {
		m := element.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not an element line: %q", l)
		}
		if _, ok := parent[m[2]]; !ok {
			t.Fatalf("%q: no such element", l)
		}
		ancestors := 0
		for p := parent[m[2]]; p != ""; p = parent[p] {
			if printed[p] {
				ancestors++
			}
		}
		if len(m[1]) != 2*ancestors {
			t.Errorf("%q: indented %d, want 2 × %d printed ancestors", l, len(m[1]), ancestors)
		}
		printed[m[2]] = true
		rest := strings.TrimPrefix(l, m[0])
		save = save || (m[3] == "button" && strings.HasPrefix(rest, ` "Save"`))
		if strings.Contains(rest, "showing") || strings.Contains(rest, "visible") || strings.Contains(rest, "focusable") {
			t.Errorf("%q: a state every listed element has", l)
		}
	}
	if !save {
		t.Fatalf(`no line eN button "Save":%s`, strings.Join(lines, "\n"))
	}
	if strings.Contains(strings.Join(lines, "\n"), `"snapshot_id"`) {
		t.Fatal("JSON on the terminal")
	}

	lines = d.OnTTY(t, run, "inspect", "--app", "notes", "--json")
	if insp := oneInspection(t, strings.Join(lines, "\n")); insp.App.PID != 501 {
		t.Fatalf("inspect --json on a terminal: %+v", insp.App)
	}
}

// oneInspection decodes out as exactly one JSON document, an inspection.
func oneInspection(t *testing.T, out string) model.Inspection {
	t.Helper()
	testdaemon.MustMatch(t, "inspect.reply", []byte(out))
	dec := json.NewDecoder(strings.NewReader(out))
	var insp model.Inspection
	if err := dec.Decode(&insp); err != nil {
		t.Fatalf("not JSON: %v\n%.500s", err, out)
	}
	if err := dec.Decode(new(any)); err != io.EOF {
		t.Fatalf("more than one JSON document (%v):\n%.500s", err, out)
	}
	if !strings.HasPrefix(insp.SnapshotID, "s_") || len(insp.Elements) == 0 {
		t.Fatalf("inspection: %.500s", out)
	}
	return insp
}

// On a terminal apps is a table with aligned columns.
func TestTTYAppsIsATable(t *testing.T) {
	d := startTestDaemon(t)
	lines := d.OnTTY(t, run, "apps")
	if len(lines) != 3 || !regexp.MustCompile(`^PID +NAME +TOOLKIT +ID$`).MatchString(strings.TrimRight(lines[0], " ")) {
		t.Fatalf("apps on a terminal:\n%s", strings.Join(lines, "\n"))
	}
	col := strings.Index(lines[0], "NAME")
	for _, want := range []string{"501", "502"} {
		found := false
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, want+" ") && len(l) > col && l[col-1] == ' ' && l[col] != ' ' {
				found = true
			}
		}
		if !found {
			t.Fatalf("no row of pid %s with its name under NAME:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	if !strings.Contains(lines[1]+lines[2], "Notes") || !strings.Contains(lines[1]+lines[2], "Mail") {
		t.Fatalf("apps on a terminal:\n%s", strings.Join(lines, "\n"))
	}
}

// On a terminal tail prints one line an event, as it comes.
func TestTTYTailIsOneLineAnEvent(t *testing.T) {
	d := startTestDaemon(t)
	desk := d.Backend.(*sim.Desktop)
	slave, lines := testdaemon.OpenTTY(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	consumers := func() int {
		n, err := d.Server.StreamConsumers(ctx, d.Subjects.StreamName())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := consumers()
	var errb testkit.Buffer
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"tail", "notes", "--state-dir", d.Dir}, slave, &errb) }()
	// The tail follows new events only: change the desktop once its consumer is there.
	testkit.Eventually(t, 10*time.Second, "the tail's consumer", func() bool { return consumers() > before })

	event := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3}  Notes  value_changed  text_field "Title"$`)
	for i := range 2 {
		if err := desk.SetValue(501, "title", fmt.Sprintf("title %d", i)); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-lines:
			if !event.MatchString(got) {
				t.Fatalf("tail on a terminal: %q, want a line like %s", got, event)
			}
		case c := <-code:
			t.Fatalf("tail ended with %d: %s", c, errb.String())
		case <-ctx.Done():
			t.Fatalf("tail showed no line for change %d within 30 s", i)
		}
	}
	cancel()
	if c := <-code; c != 0 {
		t.Fatalf("tail ended with %d: %s", c, errb.String())
	}
	select {
	case l := <-lines:
		t.Fatalf("a line more than the events: %q", l)
	default:
	}
}
