package text_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/fixtures"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/observer/text"
)

const (
	notesPID    = 501
	longreadPID = 701
	readerPID   = 711
)

// desktop starts a fixture desktop on a fake clock (its scripts stay still) that the test closes.
func desktop(t *testing.T, name string) *sim.Desktop {
	t.Helper()
	d, err := sim.Fixture(name, sim.WithClock(sim.NewFakeClock(time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// watchful is a backend that counts every call that could change the desktop: a read must make
// none of them.
type watchful struct {
	observer.Backend
	changes atomic.Int64
}

func (w *watchful) Perform(ctx context.Context, ref model.NodeRef, action string) error {
	w.changes.Add(1)
	return w.Backend.Perform(ctx, ref, action)
}

func (w *watchful) SetAttribute(ctx context.Context, ref model.NodeRef, attr string, value any) error {
	w.changes.Add(1)
	return w.Backend.SetAttribute(ctx, ref, attr, value)
}

func (w *watchful) Input(ctx context.Context, in observer.Input) error {
	w.changes.Add(1)
	return w.Backend.Input(ctx, in)
}

func (w *watchful) FocusPath(ctx context.Context, pid int) ([]model.NodeRef, error) {
	w.changes.Add(1) // not a change, but a read needs no focus: calling it would be wasted work
	return w.Backend.FocusPath(ctx, pid)
}

// labelsApart is a backend whose plain Read leaves static texts' text out, as the AT-SPI backend
// leaves labels' text out; only ReadWithText has it.
type labelsApart struct {
	*watchful
	withText atomic.Int64
}

func (l *labelsApart) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	nodes := l.watchful.Read(ctx, refs)
	for i := range nodes {
		if nodes[i].Role == model.RoleText {
			nodes[i].Name, nodes[i].Text = "", ""
		}
	}
	return nodes
}

func (l *labelsApart) ReadWithText(ctx context.Context, refs []model.NodeRef) []model.Node {
	l.withText.Add(1)
	return l.watchful.Read(ctx, refs)
}

func read(t *testing.T, o *observer.Observer, req text.Request) *model.ReadResult {
	t.Helper()
	res, err := text.Read(context.Background(), o, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes != len(res.Text) || !utf8.ValidString(res.Text) {
		t.Errorf("bytes = %d for %d bytes of text, valid UTF-8 %v", res.Bytes, len(res.Text), utf8.ValidString(res.Text))
	}
	if want := len(strings.Split(res.Text, "\n")); res.Text != "" && res.Lines != want {
		t.Errorf("lines = %d, want %d", res.Lines, want)
	}
	return res
}

// secureValues returns the values of the secure text fields of a fixture file.
func secureValues(t *testing.T, name string) []string {
	t.Helper()
	raw, ok := fixtures.Desktop(name)
	if !ok {
		t.Fatalf("no fixture desktop %q", name)
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		t.Fatal(err)
	}
	var out []string
	var visit func(v any)
	visit = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["subrole"] == "AXSecureTextField" {
				out = append(out, x["value"].(string))
			}
			for _, c := range x {
				visit(c)
			}
		case []any:
			for _, c := range x {
				visit(c)
			}
		}
	}
	visit(tree)
	if len(out) == 0 {
		t.Fatalf("%s has no secure field", name)
	}
	return out
}

func TestReadDemoWindow(t *testing.T) {
	d := desktop(t, "demo")
	focusBefore, _ := d.FocusPath(context.Background(), notesPID)
	spy := &watchful{Backend: d}
	o := observer.New(spy)
	snapshots, bytes := o.Store().Stats()

	res := read(t, o, text.Request{App: model.AppQuery{Name: "Notes"}})

	if res.App.Name != "Notes" || res.App.PID != notesPID || res.Window.Title != "Notes" {
		t.Errorf("read %+v %+v, want Notes' window", res.App, res.Window)
	}
	if res.Truncated || len(res.Truncation) > 0 || res.Omitted != 0 {
		t.Errorf("truncated %v %v omitted %d: the demo fits", res.Truncated, res.Truncation, res.Omitted)
	}
	if res.Elements < 1200 { // 400 rows of 3 elements, read although only ~15 are on screen
		t.Errorf("walked %d elements, want the whole window", res.Elements)
	}
	lines := strings.Split(res.Text, "\n")
	// Tree order, one line per visual line; rows and the web area's sections below the visible
	// part are included: a read keeps everything.
	inOrder := []string{
		"Save", "Shopping list", "Remember me 50", "Name", "Row 1", "Row 2", "Row 16", "Row 400",
		"Release notes", "Version 2.4 brings faster sync and a new sidebar.", "Read the documentation",
		"Known issues", "Attachments larger than 2 GB may fail to upload.",
		"Archive", "Older releases", "Last updated in spring.",
	}
	last := -1
	for _, want := range inOrder {
		i := slices.Index(lines, want)
		if i < 0 {
			t.Errorf("no line %q", want)
			continue
		}
		if i <= last {
			t.Errorf("line %q at %d, before the line of its predecessor (%d)", want, i, last)
		}
		last = i
	}
	if !strings.HasPrefix(lines[len(lines)-1], "Synced") {
		t.Errorf("last line %q, want the status text", lines[len(lines)-1])
	}
	for _, secret := range append(secureValues(t, "demo"), "Password") {
		if strings.Contains(res.Text, secret) {
			t.Errorf("read %q of the secure field", secret)
		}
	}
	for _, name := range []string{"Items", "Notes"} { // a scroll area's description, the window's title
		if slices.Contains(lines, name) {
			t.Errorf("read the container name %q as text", name)
		}
	}

	if n, b := o.Store().Stats(); n != snapshots || b != bytes {
		t.Errorf("store went from %d snapshots (%d bytes) to %d (%d): a read stores none", snapshots, bytes, n, b)
	}
	if in := d.Inputs(); len(in) != 0 {
		t.Errorf("a read sent input: %+v", in)
	}
	if n := spy.changes.Load(); n != 0 {
		t.Errorf("a read made %d calls that act on the desktop or ask for focus", n)
	}
	if focusAfter, _ := d.FocusPath(context.Background(), notesPID); !slices.Equal(focusBefore, focusAfter) {
		t.Errorf("focus moved from %v to %v", focusBefore, focusAfter)
	}
}

func TestReadUsesReadWithText(t *testing.T) {
	d := desktop(t, "demo")
	b := &labelsApart{watchful: &watchful{Backend: d}}
	res := read(t, observer.New(b), text.Request{App: model.AppQuery{Name: "Notes"}})
	if b.withText.Load() == 0 {
		t.Error("ReadWithText was never called")
	}
	for _, want := range []string{"Row 1", "Version 2.4 brings faster sync and a new sidebar."} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("%q missing: read without the labels' text", want)
		}
	}
}

func TestReadTablesInlineRunsAndFields(t *testing.T) {
	d := desktop(t, "reading")
	res := read(t, observer.New(d), text.Request{App: model.AppQuery{PID: readerPID}, Window: "Report"})
	want := "Quarterly report\n" +
		"Revenue grew 12 percent over a quarter that started slowly; see the details. More below.\n" +
		"Region\tQ1\tQ2\n" +
		"North\t10\t12\n" +
		"South\t\t9\n" +
		"First line\nSecond line\n" +
		"OK ×"
	if res.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s\n(%q)", res.Text, want, res.Text)
	}
	for _, secret := range append(secureValues(t, "reading"), "PIN") {
		if strings.Contains(res.Text, secret) {
			t.Errorf("read %q of the secure field", secret)
		}
	}
}

func TestReadSubtree(t *testing.T) {
	d := desktop(t, "demo")
	o := observer.New(d)
	insp, err := o.Inspect(context.Background(), observer.InspectRequest{App: model.AppQuery{Name: "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	var page string
	for _, e := range insp.Elements {
		if e.Role == model.RoleWebArea {
			page = e.ID
		}
	}
	res := read(t, o, text.Request{Scope: &observer.Scope{Snapshot: insp.SnapshotID, Element: page}})
	want := "Release notes\nVersion 2.4 brings faster sync and a new sidebar.\nRead the documentation\n" +
		"Known issues\nAttachments larger than 2 GB may fail to upload.\nArchive\nOlder releases\nLast updated in spring."
	if res.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s", res.Text, want)
	}
	if res.Window.Title != "Notes" {
		t.Errorf("window %+v", res.Window)
	}
}

func TestReadLongTextStopsAtTheLimit(t *testing.T) {
	d := desktop(t, "longtext")
	// The whole text, to check the fixture: well over the limit, with a multi-byte character
	// across the limit's byte so that a naive cut would split it.
	win := d.Ref(longreadPID, "article-window")
	walk := observer.Walk(context.Background(), d, win, observer.WalkOptions{Budget: model.WideBudget()})
	full, _, _, _ := text.Assemble(walk, 0, 1<<30)
	if len(full) < text.MaxReadBytes+10_000 || utf8.RuneStart(full[text.MaxReadBytes]) {
		t.Fatalf("fixture: %d bytes, byte %d starts a character: the limit would not fall inside one", len(full), text.MaxReadBytes)
	}

	res := read(t, observer.New(d), text.Request{App: model.AppQuery{Name: "Longread"}})
	if !res.Truncated || !slices.Equal(res.Truncation, []model.Truncation{model.TextLimit}) {
		t.Errorf("truncated %v %v, want text_limit alone", res.Truncated, res.Truncation)
	}
	if len(res.Text) > text.MaxReadBytes || !utf8.ValidString(res.Text) || res.Omitted == 0 {
		t.Errorf("%d bytes (max %d), valid UTF-8 %v, omitted %d", len(res.Text), text.MaxReadBytes, utf8.ValidString(res.Text), res.Omitted)
	}
	boundary := text.MaxReadBytes
	for !utf8.RuneStart(full[boundary]) {
		boundary--
	}
	if want := strings.TrimRightFunc(full[:boundary], unicode.IsSpace); res.Text != want {
		t.Errorf("text is not the whole text cut at the last character boundary before the limit: %d bytes, want %d (ends %q)",
			len(res.Text), len(want), res.Text[max(0, len(res.Text)-20):])
	}

	small := read(t, observer.New(d), text.Request{App: model.AppQuery{Name: "Longread"}, Limit: 100})
	if len(small.Text) > 100 || !strings.HasPrefix(full, small.Text) || !small.Truncated {
		t.Errorf("limit 100: %d bytes %q", len(small.Text), small.Text)
	}
	capped := read(t, observer.New(d), text.Request{App: model.AppQuery{Name: "Longread"}, Limit: 1 << 20})
	if len(capped.Text) != len(res.Text) {
		t.Errorf("a limit above the maximum gave %d bytes, want the maximum's %d", len(capped.Text), len(res.Text))
	}
}

func TestReadWindowWithoutText(t *testing.T) {
	d := desktop(t, "reading")
	res := read(t, observer.New(d), text.Request{App: model.AppQuery{Name: "Reader"}, Window: "Canvas"})
	if res.Text != "" || res.Lines != 0 || res.Truncated || res.Elements != 2 {
		t.Errorf("got %q, %d lines, truncated %v, %d elements", res.Text, res.Lines, res.Truncated, res.Elements)
	}
	if !strings.Contains(res.Hint, "OCR") {
		t.Errorf("hint %q does not point at pixels", res.Hint)
	}
}

func TestReadReportsWalkCuts(t *testing.T) {
	d := desktop(t, "reading")
	if err := d.InjectFault(readerPID, sim.Fault{Kind: sim.FaultTransient, Element: "para-link", Count: 1}); err != nil {
		t.Fatal(err)
	}
	res := read(t, observer.New(d), text.Request{App: model.AppQuery{Name: "Reader"}, Window: "Report"})
	if !res.Truncated || !slices.Contains(res.Truncation, model.IncompleteRead) || slices.Contains(res.Truncation, model.TextLimit) {
		t.Errorf("truncated %v %v, want incomplete_read", res.Truncated, res.Truncation)
	}
	if strings.Contains(res.Text, "the details") || !strings.Contains(res.Text, "North\t10\t12") {
		t.Errorf("text %q: want all but the unreadable link", res.Text)
	}
}

func TestReadErrors(t *testing.T) {
	d := desktop(t, "reading")
	o := observer.New(d)
	codeOf := func(err error) model.Code {
		var e *model.Error
		if !errors.As(err, &e) {
			t.Fatalf("%v is not an *model.Error", err)
		}
		if e.Suggestion == "" {
			t.Errorf("%s without a suggestion", e.Code)
		}
		return e.Code
	}
	reader := model.AppQuery{Name: "Reader"}
	ctx := context.Background()

	_, err := text.Read(ctx, o, text.Request{App: model.AppQuery{Name: "Nothing"}})
	if c := codeOf(err); c != model.CodeAppNotFound {
		t.Errorf("unknown app: %s", c)
	}
	_, err = text.Read(ctx, o, text.Request{App: reader, Limit: -1})
	if c := codeOf(err); c != model.CodeBadRequest {
		t.Errorf("negative limit: %s", c)
	}

	// The window itself cannot be read: nothing was read, and the suggestion points at pixels.
	if err := d.InjectFault(readerPID, sim.Fault{Kind: sim.FaultTransient, Element: "report", Count: 1}); err != nil {
		t.Fatal(err)
	}
	_, err = text.Read(ctx, o, text.Request{App: reader, Window: "Report"})
	if c := codeOf(err); c != model.CodeTransient || !strings.Contains(err.(*model.Error).Suggestion, "OCR") {
		t.Errorf("unreadable window: %v", err)
	}

	// A scope whose element is gone.
	insp, err := o.Inspect(ctx, observer.InspectRequest{App: reader, Window: "Report"})
	if err != nil {
		t.Fatal(err)
	}
	para := "" // the paragraph group of reading.json, at [110, 120, 600, 40]
	for _, e := range insp.Elements {
		if e.PlatformRole == "AXGroup" && e.Bounds != nil && *e.Bounds == (model.Rect{X: 110, Y: 120, W: 600, H: 40}) {
			para = e.ID
		}
	}
	if err := d.RemoveNode(readerPID, "para"); err != nil {
		t.Fatal(err)
	}
	_, err = text.Read(ctx, o, text.Request{Scope: &observer.Scope{Snapshot: insp.SnapshotID, Element: para}})
	if c := codeOf(err); c != model.CodeScopeChanged {
		t.Errorf("gone scope: %s", c)
	}

	// An app that stops answering.
	if err := d.InjectFault(readerPID, sim.Fault{Kind: sim.FaultHang}); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err = text.Read(short, o, text.Request{App: reader})
	if c := codeOf(err); c != model.CodeAppNotResponding {
		t.Errorf("hung app: %s", c)
	}
	if err := d.ClearFaults(readerPID); err != nil {
		t.Fatal(err)
	}
}
