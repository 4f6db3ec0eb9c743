package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// The conformance matrix: one scenario run against a real app of every toolkit family a Linux
// desktop runs, in the orders a user's desktop sees: the apps started before the daemon, the
// daemon restarted under them (losing every third accessibility event, as a busy bus would),
// and the apps opened while it runs. Its table (apps x capabilities) is the README's: a run
// writes it to .bench/matrix.md and fails when the README's differs (make matrix-readme puts it
// there).

// capability is one column of the matrix: a step of the scenario.
type capability string

const (
	capApps     capability = "apps"      // it appears in apps
	capInspect  capability = "inspect"   // inspect lists its controls, with action names that are names
	capType     capability = "type"      // text entry, proven by expect
	capRead     capability = "read"      // read gives the window's visible text, a document's body included
	capClick    capability = "click"     // a press by locator with the action name inspect listed, proven by expect, confirmed, recorded as a flow
	capWait     capability = "wait"      // a wait met on a change the app makes
	capConverge capability = "converges" // the daemon's inspect equals a fresh backend's, within one re-read period
	capQuit     capability = "quit"      // quit, answered by its app_terminated
)

// capabilities are the columns, in the scenario's order.
var capabilities = []capability{capApps, capInspect, capType, capRead, capClick, capWait, capConverge, capQuit}

// order is how the app met the daemon: a phase of the run.
type order string

const (
	appFirst    order = "app first"
	restarted   order = "daemon restarted"
	daemonFirst order = "daemon first"
)

var orders = []order{appFirst, restarted, daemonFirst}

// matrixApp is one row: a real app, how to start it, and its scenario's specifics.
type matrixApp struct {
	row    string // "GTK 3" (the toolkit family)
	app    string // "gtk3-widget-factory (Debian)"
	start  func(ctx context.Context, s *headless.Session, dir string) (*headless.App, error)
	steps  matrixSteps
	cannot map[capability]string // what the toolkit cannot do, and why: the cell says so
}

// matrixSteps are an app's scenario: each step returns nil when it held, a note when it held in
// a way worth saying (physical input), or an error.
type matrixSteps interface {
	inspect(r *matrixRun) (string, error)
	typeText(r *matrixRun) (string, error)
	read(r *matrixRun) (string, error)
	click(r *matrixRun) (string, error)
	wait(r *matrixRun) (string, error)
}

// result is one cell of one order.
type result struct {
	note string
	err  error
}

// matrix is the run: its desktop, its results and the apps' instances.
type matrix struct {
	t       *testing.T
	session *headless.Session
	dir     string
	results map[string]map[capability]map[order]result // by row
	running map[string]*headless.App                   // by row
	presses map[string]int                             // by row: the presses of the running instance
}

func TestConformanceMatrix(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	m := &matrix{t: t, session: testdaemon.StartHeadless(t, ctx), dir: t.TempDir(),
		results: map[string]map[capability]map[order]result{}, running: map[string]*headless.App{}, presses: map[string]int{}}
	apps := matrixApps()

	for _, a := range apps { // the apps first, then a daemon
		m.start(ctx, a)
	}
	d := m.daemon(0)
	for _, a := range apps {
		m.run(ctx, d, a, appFirst)
	}
	m.stop(d)
	d = m.daemon(3) // restarted under the running apps, losing every third event
	for _, a := range apps {
		m.run(ctx, d, a, restarted)
	}
	m.stop(d)
	d = m.daemon(0) // the daemon first: each app opened while it runs
	for _, a := range apps {
		m.start(ctx, a)
		m.run(ctx, d, a, daemonFirst)
	}
	m.stop(d)
	m.table(apps)
}

// start starts a's app in the session.
func (m *matrix) start(ctx context.Context, a *matrixApp) {
	t0 := time.Now()
	app, err := a.start(ctx, m.session, m.dir)
	if err != nil {
		m.t.Fatalf("%s: %v", a.app, err)
	}
	m.running[a.row], m.presses[a.row] = app, 0
	m.t.Logf("%s: up in %v (pid %d)", a.app, time.Since(t0).Round(time.Millisecond), app.PID)
}

// daemon starts a daemon on the session, losing every loseEvery-th accessibility event.
func (m *matrix) daemon(loseEvery int) *testDaemon {
	cfg := testdaemon.SessionConfig(m.session)
	cfg.LoseEvents, cfg.Log = loseEvery, slog.New(slog.DiscardHandler)
	return &testDaemon{testdaemon.Start(m.t, cfg)}
}

func (m *matrix) stop(d *testDaemon) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.Close(ctx); err != nil {
		m.t.Errorf("daemon close: %v", err)
	}
}

// run runs a's scenario in order o against daemon d; the last two orders end with quit.
func (m *matrix) run(ctx context.Context, d *testDaemon, a *matrixApp, o order) {
	m.t.Run(string(o)+"/"+a.row, func(t *testing.T) {
		r := &matrixRun{t: t, m: m, d: d, a: a, order: o, app: m.running[a.row]}
		for _, c := range capabilities {
			if c == capQuit && o == appFirst {
				continue // the app lives on into the restart
			}
			if why := a.cannot[c]; why != "" {
				continue
			}
			note, err := r.step(ctx, c)
			if err != nil {
				t.Errorf("%s: %v", c, err)
			}
			m.record(a.row, c, o, result{note, err})
			if c == capApps && err != nil {
				return // nothing else can be found
			}
		}
	})
}

func (m *matrix) record(row string, c capability, o order, r result) {
	if m.results[row] == nil {
		m.results[row] = map[capability]map[order]result{}
	}
	if m.results[row][c] == nil {
		m.results[row][c] = map[order]result{}
	}
	m.results[row][c][o] = r
}

// table writes the matrix as a markdown table to .bench/matrix.md and checks that the README
// holds the same one between its matrix markers.
func (m *matrix) table(apps []*matrixApp) {
	var b strings.Builder
	b.WriteString("| toolkit | app |")
	for _, c := range capabilities {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(capabilities)) + "\n")
	for _, a := range apps {
		fmt.Fprintf(&b, "| %s | %s |", a.row, a.app)
		for _, c := range capabilities {
			fmt.Fprintf(&b, " %s |", m.cell(a, c))
		}
		b.WriteString("\n")
	}
	table := b.String()
	root := testdaemon.ModuleRoot(m.t)
	if err := os.MkdirAll(filepath.Join(root, ".bench"), 0o755); err == nil {
		_ = os.WriteFile(filepath.Join(root, ".bench", "matrix.md"), []byte(table), 0o644)
	}
	m.t.Logf("the matrix:\n%s", table)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		m.t.Fatal(err)
	}
	before, got, after, err := matrixBlock(string(readme))
	if err != nil {
		m.t.Fatal(err)
	}
	if got != table && !m.t.Failed() {
		if os.Getenv("AXBUS_MATRIX_README") == "update" {
			updated := before + table + after
			if err := os.WriteFile(filepath.Join(root, "README.md"), []byte(updated), 0o644); err != nil {
				m.t.Fatal(err)
			}
			return
		}
		m.t.Errorf("the README's matrix is not this run's (make matrix-readme writes it):\n%s", table)
	}
}

// The README's matrix lies between these lines.
const (
	matrixBegin = "<!-- matrix: written by TestConformanceMatrix -->\n"
	matrixEnd   = "<!-- end of matrix -->\n"
)

// matrixBlock splits the README at its matrix markers: what comes up to the first marker (and it),
// the table between them, and the rest (the second marker first).
func matrixBlock(readme string) (before, block, after string, err error) {
	head, rest, ok := strings.Cut(readme, matrixBegin)
	block, tail, ok2 := strings.Cut(rest, matrixEnd)
	if !ok || !ok2 {
		return "", "", "", errors.New("README.md has no matrix markers")
	}
	return head + matrixBegin, block, matrixEnd + tail, nil
}

// cell is what the table says of capability c of app a over the orders: ✓ when it held in every
// order it ran in (with its note), the toolkit's reason when it cannot, else which order failed.
func (m *matrix) cell(a *matrixApp, c capability) string {
	if why := a.cannot[c]; why != "" {
		return "— " + why
	}
	var failed []string
	var notes []string
	for _, o := range orders {
		r, ran := m.results[a.row][c][o]
		switch {
		case !ran && (c != capQuit || o != appFirst):
			failed = append(failed, string(o)+": not run")
		case !ran:
		case r.err != nil:
			failed = append(failed, string(o)+": "+firstLine(r.err.Error()))
		case r.note != "" && !slices.Contains(notes, r.note):
			notes = append(notes, r.note)
		}
	}
	if len(failed) > 0 {
		return "✗ " + strings.Join(failed, "; ")
	}
	if len(notes) > 0 {
		return "✓ " + strings.Join(notes, "; ")
	}
	return "✓"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strings.ReplaceAll(s, "|", "/")
}

// The README's table goes between its markers, an empty block included.
func TestMatrixBlock(t *testing.T) {
	readme := "# title\n\ntext\n" + matrixBegin + matrixEnd + "after\n"
	before, block, after, err := matrixBlock(readme)
	if err != nil || block != "" {
		t.Fatalf("block %q, %v", block, err)
	}
	if got := before + "| t |\n" + after; got != "# title\n\ntext\n"+matrixBegin+"| t |\n"+matrixEnd+"after\n" {
		t.Fatalf("updated:\n%s", got)
	}
	if _, _, _, err := matrixBlock("# no markers\n"); err == nil {
		t.Fatal("a README without markers")
	}
}
