package main

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
)

// hiddenNote is the GTK3 fixture's label that is in the tree but never shown (gtk3_fixture.py).
const hiddenNote = "A note never shown"

// TestReadVisibleLeavesHiddenOut reads the GTK3 fixture through NATS and the CLI: its hidden label
// is left out and counted, while the rows and lines scrolled out of view are still read; with all
// the label is read too, in tree order.
func TestReadVisibleLeavesHiddenOut(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3)
	pid := dd.apps[headless.KindGTK3].PID
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	shown, err := dd.client.Read(ctx, api.ReadRequest{AppTarget: api.AppTarget{PID: pid}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(shown.Text, hiddenNote) || shown.HiddenOmitted < 1 {
		t.Fatalf("read: hidden_omitted %d, the hidden label read %v:\n%.600s", shown.HiddenOmitted, strings.Contains(shown.Text, hiddenNote), shown.Text)
	}
	for _, s := range []string{"Save", "Row 400", "Line 60 of the long text"} { // scrolled out of view is not hidden
		if !strings.Contains(shown.Text, s) {
			t.Fatalf("read lacks %q:\n%.600s", s, shown.Text)
		}
	}

	all, err := dd.client.Read(ctx, api.ReadRequest{AppTarget: api.AppTarget{PID: pid}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if all.HiddenOmitted != 0 || !strings.Contains(all.Text, hiddenNote) {
		t.Fatalf("read all: hidden_omitted %d, the hidden label read %v", all.HiddenOmitted, strings.Contains(all.Text, hiddenNote))
	}
	if strings.Index(all.Text, "Line 60 of the long text") > strings.Index(all.Text, hiddenNote) {
		t.Fatalf("read all: the hidden label, last in the tree, is not read last:\n%s", all.Text[max(0, len(all.Text)-300):])
	}
	if without := strings.Replace(all.Text, "\n"+hiddenNote, "", 1); without != shown.Text {
		t.Fatalf("read all is not read with the hidden label added:\n%s\n--- read:\n%s", all.Text[max(0, len(all.Text)-300):], shown.Text[max(0, len(shown.Text)-300):])
	}

	out, errOut, code := dd.cli(t, "read", "--pid", strconv.Itoa(pid), "--text")
	if code != 0 || strings.Contains(out, hiddenNote) || !strings.Contains(errOut, "--all reads them") {
		t.Fatalf("axbus read --text: exit %d, stderr %q, the hidden label printed %v", code, errOut, strings.Contains(out, hiddenNote))
	}
	out, errOut, code = dd.cli(t, "read", "--pid", strconv.Itoa(pid), "--text", "--all")
	if code != 0 || !strings.Contains(out, hiddenNote) || errOut != "" {
		t.Fatalf("axbus read --text --all: exit %d, stderr %q, the hidden label printed %v", code, errOut, strings.Contains(out, hiddenNote))
	}
}

// TestReadVisibleLibreOfficeWriter types a sentence into a Writer document and reads the window:
// the sentence is there (a paragraph's text is its value) and so are the menus' titles, the items
// of the closed menus are not, and all brings them back.
func TestReadVisibleLibreOfficeWriter(t *testing.T) {
	if _, err := exec.LookPath("libreoffice"); err != nil {
		t.Fatal("LibreOffice is missing (Debian: libreoffice-writer, libreoffice-gtk3; make test installs them)")
	}
	profile := "file://" + t.TempDir() // its own profile: no other LibreOffice takes the window over
	var writer *headless.App
	dd := startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		var err error
		writer, err = dd.session.StartProgram(ctx, "writer", []string{"libreoffice", "--writer", "--norestore", "--nologo", "-env:UserInstallation=" + profile})
		if err != nil {
			t.Fatal(err)
		}
		return []int{writer.PID}
	})
	const sentence = "The quick brown fox reads the whole document."
	pid := strconv.Itoa(writer.PID)
	if _, errOut, code := dd.cli(t, "type", "role=paragraph", sentence, "--pid", pid); code != 0 {
		t.Fatalf("axbus type: exit %d %s", code, errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	read := func(all bool) *model.ReadResult {
		r, err := dd.client.Read(ctx, api.ReadRequest{AppTarget: api.AppTarget{PID: writer.PID}, All: all})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	shown := read(false)
	if !strings.Contains(shown.Text, sentence) || !strings.Contains(shown.Text, "File Edit View") {
		t.Fatalf("read lacks the document's sentence or the menu bar's titles:\n%s", shown.Text)
	}
	for _, item := range []string{"HTML Document", "Save As...", "Exit LibreOffice"} { // File's items
		if strings.Contains(shown.Text, item) {
			t.Fatalf("read holds %q of a closed menu:\n%s", item, shown.Text)
		}
	}
	if shown.HiddenOmitted == 0 || !strings.Contains(read(true).Text, "HTML Document") {
		t.Fatalf("hidden_omitted %d; read all must hold the closed menus' items", shown.HiddenOmitted)
	}
	t.Logf("Writer: %d lines read, %d hidden elements left out", shown.Lines, shown.HiddenOmitted)
}
