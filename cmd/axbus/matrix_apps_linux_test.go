package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// matrixApps are the matrix's rows: a real app of each toolkit family, Debian's own where Debian
// has one that shows what the scenario needs, else a fixture of ours written against the toolkit.
func matrixApps() []*matrixApp {
	fixture := func(kind string) func(ctx context.Context, s *headless.Session, _ string) (*headless.App, error) {
		return func(ctx context.Context, s *headless.Session, _ string) (*headless.App, error) {
			return s.StartApp(ctx, kind)
		}
	}
	program := func(name string, argv ...string) func(ctx context.Context, s *headless.Session, _ string) (*headless.App, error) {
		return func(ctx context.Context, s *headless.Session, _ string) (*headless.App, error) {
			return s.StartProgram(ctx, name, argv)
		}
	}
	return []*matrixApp{
		{row: "GTK 3", app: "gtk3-widget-factory (Debian)", start: program("widget-factory", "gtk3-widget-factory"), steps: widgetFactory{}},
		{row: "GTK 4, libadwaita", app: "gnome-calculator (Debian)", start: program("calculator", "gnome-calculator"), steps: calculator{}},
		{row: "Qt 5", app: "PyQt5 fixture", start: fixture(headless.KindQt5), steps: controls{}},
		{row: "Qt 6", app: "PyQt6 fixture", start: fixture(headless.KindQt6), steps: controls{}},
		{row: "LibreOffice (VCL)", app: "LibreOffice Writer (Debian)", start: startWriter, steps: writer{}},
		{row: "Firefox (Gecko)", app: "firefox-esr on matrix.html (Debian)", start: startFirefox,
			steps: controls{typing: "physical input: Firefox's EditableText answers true and changes nothing"}},
		{row: "Chromium (Blink)", app: "chromium on matrix.html (Debian)", start: startChromium,
			steps: controls{typing: "physical input: Chromium has no EditableText"}},
		{row: "WebKitGTK", app: "WebKit2GTK 4.1 fixture", start: fixture(headless.KindWebKit),
			steps: controls{typing: "physical input: WebKit's fields have no EditableText"}},
		{row: "Java Swing", app: "Swing fixture (ATK wrapper)", start: fixture(headless.KindSwing), steps: controls{}},
	}
}

func startWriter(ctx context.Context, s *headless.Session, dir string) (*headless.App, error) {
	profile := filepath.Join(dir, "libreoffice") // its own: no other LibreOffice takes the window over
	return s.StartProgram(ctx, "writer", []string{"libreoffice", "--writer", "--norestore", "--nologo", "-env:UserInstallation=file://" + profile})
}

func startFirefox(ctx context.Context, s *headless.Session, _ string) (*headless.App, error) {
	return s.StartFirefox(ctx, "matrix.html")
}

func startChromium(ctx context.Context, s *headless.Session, _ string) (*headless.App, error) {
	b, err := s.StartBrowser(ctx, "matrix.html")
	if err != nil {
		return nil, err
	}
	return &headless.App{Kind: "chromium", PID: b.PID, Spawned: b.PID, Bus: b.Bus}, nil
}

// token names an order in text the scenario types, so that each order's text is its own.
func token(o order) string {
	return map[order]string{appFirst: "first", restarted: "restart", daemonFirst: "opened"}[o]
}

// controls is the scenario of the apps that show the matrix fixtures' controls
// (fixtures/apps/README.md): Save and its status, Name, a two-paragraph document, Tick N.
type controls struct {
	typing string // why text goes in by physical input ("": through accessibility)
}

func (controls) inspect(r *matrixRun) (string, error) {
	// A browser opened a moment ago may still be loading its page: wait for it, as an agent would.
	if err := r.waitAfter("element:role=button,name=Save", func() error { return nil }); err != nil {
		return "", err
	}
	_, _, err := r.pressable("role=button,name=Save")
	return "", err
}

func (c controls) typeText(r *matrixRun) (string, error) {
	text := "Ada " + token(r.order)
	args := []string{"type", "role=text_field,name=Name", text, "--expect", fmt.Sprintf("element:name=Name,value~%q", text), "--for", "10s"}
	if c.typing != "" {
		args = append(args, "--policy", "physical")
	}
	_, err := r.act(args...)
	return c.typing, err
}

func (controls) read(r *matrixRun) (string, error) {
	text, err := r.readText()
	if err != nil {
		return "", err
	}
	return "", holds(text, "Save", "First paragraph of the document.", "Second paragraph, after a blank line.")
}

func (controls) click(r *matrixRun) (string, error) {
	_, action, err := r.pressable("role=button,name=Save")
	if err != nil {
		return "", err
	}
	n := r.m.presses[r.a.row] + 1
	want := "Saved"
	if n > 1 {
		want = fmt.Sprintf("Saved %d", n)
	}
	if _, err := r.act("press", "role=button,name=Save", action, "--expect", fmt.Sprintf("text=%q", want), "--for", "10s"); err != nil {
		return "", err
	}
	r.m.presses[r.a.row] = n
	if r.app.Output() != nil { // the fixture says what it did, independently of accessibility
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return "", r.app.WaitOutput(ctx, fmt.Sprintf("SAVED %d", n))
	}
	return "", nil
}

var tickNumber = regexp.MustCompile(`Tick (\d+)`)

func (controls) wait(r *matrixRun) (string, error) {
	// Where the count stands: a wait met at once, on the app's own answer (the match is read again).
	now, err := matrixCLI[api.WaitResult](r, "wait", "text:/^Tick [0-9]+$/", "--for", "10s")
	if err != nil {
		return "", err
	}
	if now.Outcome != api.WaitMet || now.Match == nil {
		return "", fmt.Errorf("no Tick in the window: %s", now.Outcome)
	}
	m := tickNumber.FindStringSubmatch(now.Match.Name + " " + now.Match.Text)
	if m == nil {
		return "", fmt.Errorf("the match %q %q holds no Tick", now.Match.Name, now.Match.Text)
	}
	n, _ := strconv.Atoi(m[1])
	// The app counts by itself every 500 ms: a few ticks on, whatever the read took. Each count
	// lasts 500 ms, and the restarted daemon loses every third event: any later count will do.
	ticks := make([]string, 0, 20)
	for k := n + 4; k < n+24; k++ {
		ticks = append(ticks, fmt.Sprintf("text=%q", fmt.Sprintf("Tick %d", k)))
	}
	return "", r.waitAfter(strings.Join(ticks, " or "), func() error { return nil })
}

// widgetFactory is the scenario on GTK 3's widget factory (gtk-3-examples), page 1.
type widgetFactory struct{}

func (widgetFactory) inspect(r *matrixRun) (string, error) {
	_, _, err := r.pressable(`role=radio,name="Page 2"`)
	return "", err
}

func (widgetFactory) typeText(r *matrixRun) (string, error) {
	// Another page of the window holds a text view too: this one is named by its text.
	text := " axbus " + token(r.order)
	_, err := r.act("type", `role=text_area,value~"Lorem ipsum"`, text, "--expect", fmt.Sprintf("element:role=text_area,value~%q", strings.TrimSpace(text)))
	return "", err
}

func (widgetFactory) read(r *matrixRun) (string, error) {
	text, err := r.readText()
	if err != nil {
		return "", err
	}
	return "", holds(text, "Lorem ipsum dolor sit amet", "togglebutton", "axbus "+token(r.order))
}

// click toggles the first enabled check box ("checkbutton": six of them), by its id.
func (widgetFactory) click(r *matrixRun) (string, error) {
	insp, err := matrixCLI[model.Inspection](r, "inspect", "--find", "role=checkbox,name=checkbutton")
	if err != nil {
		return "", err
	}
	for _, el := range insp.Elements {
		if !el.States.Has(model.StateEnabled) {
			continue
		}
		action, err := pressName(&el)
		if err != nil {
			return "", err
		}
		want := "state:" + el.ID + "=checked"
		if el.States.Has(model.StateChecked) {
			want = "state:" + el.ID + "!=checked"
		}
		_, err = r.actOn(insp.SnapshotID+":"+el.ID, "press", action, "--expect", want)
		return "", err
	}
	return "", fmt.Errorf("no enabled check box")
}

// wait: Page 2 shows in the app once pressed; the wait is armed first. Page 1 comes back after.
func (widgetFactory) wait(r *matrixRun) (string, error) {
	err := r.waitAfter(`element:role=radio,name="Page 2",state=checked`, func() error {
		_, err := r.act("press", `role=radio,name="Page 2"`, "click")
		return err
	})
	if err != nil {
		return "", err
	}
	_, err = r.act("press", `role=radio,name="Page 1"`, "click", "--expect", `element:role=radio,name="Page 1",state=checked`)
	return "", err
}

// calculator is the scenario on GNOME's calculator (GTK 4, libadwaita): its display and keypad.
type calculator struct{}

func (calculator) inspect(r *matrixRun) (string, error) {
	_, _, err := r.pressable(`role=button,name="7 7"`) // GTK 4.8 names a keypad button twice: its own name and its label's
	return "", err
}

func (calculator) typeText(r *matrixRun) (string, error) {
	_, err := r.act("set-value", "role=text_area,nth=1", "12+30", "--expect", `element:role=text_area,value="12+30"`)
	return "", err
}

func (calculator) read(r *matrixRun) (string, error) {
	text, err := r.readText()
	if err != nil {
		return "", err
	}
	return "", holds(text, "7 8 9", "12+30")
}

func (calculator) click(r *matrixRun) (string, error) {
	_, action, err := r.pressable(`role=button,name="= ="`)
	if err != nil {
		return "", err
	}
	_, err = r.act("press", `role=button,name="= ="`, action, "--expect", "element:role=text_area,value=42")
	return "", err
}

// wait: ×3= makes the app compute 126, which a wait armed first sees.
func (calculator) wait(r *matrixRun) (string, error) {
	return "", r.waitAfter("element:role=text_area,value=126", func() error {
		for _, key := range []string{"×", "3", "="} {
			if _, err := r.act("click", fmt.Sprintf("role=button,name=%q", key+" "+key)); err != nil {
				return err
			}
		}
		return nil
	})
}

// writer is the scenario on LibreOffice Writer: its document, its toolbar, its status bar.
type writer struct{}

func (writer) inspect(r *matrixRun) (string, error) {
	_, _, err := r.pressable("role=toggle_button,name=Bold")
	return "", err
}

func (writer) typeText(r *matrixRun) (string, error) {
	text := "Words of the " + token(r.order) + " run. "
	_, err := r.act("type", "role=paragraph", text, "--expect", fmt.Sprintf("element:role=paragraph,value~%q", strings.TrimSpace(text)))
	return "", err
}

func (writer) read(r *matrixRun) (string, error) {
	text, err := r.readText()
	if err != nil {
		return "", err
	}
	if err := holds(text, "Words of the "+token(r.order)+" run.", "Default Paragraph Style"); err != nil {
		return "", err
	}
	if strings.Contains(text, "HTML Document") { // an item of the closed File menu
		return "", fmt.Errorf("the read holds the closed File menu's items")
	}
	return "", nil
}

func (writer) click(r *matrixRun) (string, error) {
	el, action, err := r.pressable("role=toggle_button,name=Bold")
	if err != nil {
		return "", err
	}
	want := "element:role=toggle_button,name=Bold,state=checked"
	if el.States.Has(model.StateChecked) {
		want = "element:role=toggle_button,name=Bold,state!=checked"
	}
	_, err = r.act("press", "role=toggle_button,name=Bold", action, "--expect", want)
	return "", err
}

// duringQuit: Writer asks whether to save the typed document, in a dialog; its user does not.
func (writer) duringQuit(r *matrixRun) error {
	if err := r.waitAfter("dialog", func() error { return nil }); err != nil {
		return err
	}
	_, err := r.act("click", "dialog >> role=button,name=\"Don’t Save\"")
	return err
}

var wordCount = regexp.MustCompile(`(\d+) words?, `)

// wait: the status bar counts the words a moment after they are typed; a wait armed first sees it.
func (writer) wait(r *matrixRun) (string, error) {
	text, err := r.readText()
	if err != nil {
		return "", err
	}
	m := wordCount.FindStringSubmatch(text)
	if m == nil {
		return "", fmt.Errorf("no word count in the status bar")
	}
	n, _ := strconv.Atoi(m[1])
	return "", r.waitAfter(fmt.Sprintf("text:/^%d words?, /", n+1), func() error {
		_, err := r.act("type", "role=paragraph", "one ")
		return err
	})
}

// actOn runs an action on a snapshot's element (no --pid: the id names the app).
func (r *matrixRun) actOn(target, action string, args ...string) (*api.ActionReply, error) {
	out, errOut, code := r.d.cli(r.t, append([]string{action, target}, append(args, "--json")...)...)
	if code != 0 {
		return nil, fmt.Errorf("axbus %s: exit %d: %s", action, code, firstLine(errOut+out))
	}
	reply := testdaemon.Decode[api.ActionReply](r.t, out)
	if !reply.Done || (reply.Expect != nil && reply.Expect.Outcome != api.WaitMet) {
		return &reply, fmt.Errorf("axbus %s: done %v, expect %+v", action, reply.Done, reply.Expect)
	}
	return &reply, nil
}
