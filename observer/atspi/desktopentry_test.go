package atspi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

func TestExecArgs(t *testing.T) {
	for _, c := range []struct {
		exec string
		want []string
		ok   bool
	}{
		{"gedit %U", []string{"gedit"}, true},
		{"foo --name=%c %k", []string{"foo", "--name=Foo App", "/a/foo.desktop"}, true},
		{`"/opt/my app/run" --x "a \"b\" \\c" 100%%`, []string{"/opt/my app/run", "--x", `a "b" \c`, "100%"}, true},
		{`sh -c "echo \$HOME"`, []string{"sh", "-c", "echo $HOME"}, true},
		{"  spaced   out  ", []string{"spaced", "out"}, true},
		{`broken "quote`, nil, false},
	} {
		got, ok := execArgs(c.exec, "Foo App", "/a/foo.desktop")
		if ok != c.ok || (ok && !slices.Equal(got, c.want)) {
			t.Errorf("execArgs(%q) = %q, %v; want %q, %v", c.exec, got, ok, c.want, c.ok)
		}
	}
}

func TestFindEntry(t *testing.T) {
	home, sys := t.TempDir(), t.TempDir()
	write := func(dir, rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(sys, "org.example.Notes.desktop", "[Desktop Entry]\nType=Application\nName=Notes\nExec=notes %F\nStartupWMClass=notes\n[Desktop Action new]\nExec=other\n")
	write(home, "org.example.Notes.desktop", "[Desktop Entry]\nType=Application\nName=My Notes\nExec=my-notes\n") // overrides
	write(sys, "vendor/tool.desktop", "[Desktop Entry]\nType=Application\nName=Tool\\sKit\nExec=tool\nTerminal=true\n")
	write(sys, "gone.desktop", "[Desktop Entry]\nType=Application\nName=Gone\nExec=gone\nHidden=true\n")
	write(sys, "link.desktop", "[Desktop Entry]\nType=Link\nName=Link\nURL=http://x\n")
	dirs := []string{home, sys}

	e, err := findEntry("org.example.Notes", dirs)
	if err != nil || e.Name != "My Notes" || !slices.Equal(e.Exec, []string{"my-notes"}) {
		t.Fatalf("by id: %+v, %v; want the home entry", e, err)
	}
	if e, err = findEntry("vendor-tool.desktop", dirs); err != nil || e.Name != "Tool Kit" || !e.Terminal {
		t.Fatalf("by id in a subdirectory: %+v, %v", e, err)
	}
	if e, err = findEntry("tool kit", dirs); err != nil || e.ID != "vendor-tool.desktop" {
		t.Fatalf("by name: %+v, %v", e, err)
	}
	for _, missing := range []string{"gone", "link", "nothing"} {
		if _, err := findEntry(missing, dirs); model.CodeOf(err) != model.CodeAppNotFound {
			t.Errorf("findEntry(%q): %v; want APP_NOT_FOUND", missing, err)
		}
	}
	if got := applicationDirs(func(k string) string { return map[string]string{"HOME": "/h"}[k] }); !slices.Equal(got,
		[]string{"/h/.local/share/applications", "/usr/local/share/applications", "/usr/share/applications"}) {
		t.Errorf("applicationDirs = %q", got)
	}
}

// FuzzExecArgs: any Exec value splits without a panic, and a value that splits has no quote
// left open; words without quotes, escapes or field codes come back as they were.
func FuzzExecArgs(f *testing.F) {
	for _, s := range []string{"gedit %U", `"/opt/my app/run" --x "a \"b\"" 100%%`, `broken "quote`, "%c %k %", `\\`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, exec string) {
		args, ok := execArgs(exec, "Name", "/f.desktop")
		if !ok {
			return
		}
		if !strings.ContainsAny(exec, `"%\`) {
			want := slices.DeleteFunc(strings.Split(exec, " "), func(w string) bool { return w == "" }) // the spec splits at spaces alone
			if !slices.Equal(args, want) && !(len(args) == 0 && len(want) == 0) {
				t.Fatalf("execArgs(%q) = %q, want %q", exec, args, want)
			}
		}
	})
}
