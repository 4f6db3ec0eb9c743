package atspi

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/axbus/axbus/model"
)

// desktopEntry is what a launch needs of a freedesktop.org desktop entry (a .desktop file of
// type Application).
type desktopEntry struct {
	ID, Path string // its desktop file id ("org.gnome.Calculator.desktop") and file
	Name     string
	Exec     []string // the command line, field codes expanded
	Dir      string   // its Path key: the working directory
	WMClass  string   // StartupWMClass
	Terminal bool
}

// applicationDirs are the directories of desktop entries, the first the most important
// ($XDG_DATA_HOME, then $XDG_DATA_DIRS, each with /applications).
func applicationDirs(getenv func(string) string) []string {
	home := getenv("XDG_DATA_HOME")
	if home == "" {
		if h := getenv("HOME"); h != "" {
			home = filepath.Join(h, ".local", "share")
		}
	}
	dirs := getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	var out []string
	for _, d := range append([]string{home}, strings.Split(dirs, ":")...) {
		if d != "" {
			out = append(out, filepath.Join(d, "applications"))
		}
	}
	return out
}

// findEntry finds the entry called name: by its desktop file id (with or without ".desktop"),
// else by its Name (case-insensitive), in dirs in order. Hidden entries and entries of other
// types are not found.
func findEntry(name string, dirs []string) (desktopEntry, error) {
	id := strings.TrimSuffix(strings.TrimSpace(name), ".desktop") + ".desktop"
	var byName *desktopEntry
	for _, dir := range dirs {
		var found *desktopEntry
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".desktop") {
				return nil
			}
			rel, _ := filepath.Rel(dir, path)
			fileID := strings.ReplaceAll(rel, string(filepath.Separator), "-")
			if fileID != id && byName != nil {
				return nil
			}
			e, ok := readEntry(path)
			if !ok {
				return nil
			}
			e.ID = fileID
			if fileID == id {
				found = &e
				return fs.SkipAll
			}
			if strings.EqualFold(e.Name, strings.TrimSpace(name)) {
				byName = &e
			}
			return nil
		})
		if found != nil {
			return *found, nil
		}
	}
	if byName != nil {
		return *byName, nil
	}
	return desktopEntry{}, model.Errorf(model.CodeAppNotFound,
		"Name an installed desktop entry by its id (ls /usr/share/applications) or its Name, or launch a command.",
		"no desktop entry %q in %s", name, strings.Join(dirs, ", "))
}

// readEntry reads the [Desktop Entry] group of an application entry; false when the file is
// not one, is hidden, or has no Exec.
func readEntry(path string) (desktopEntry, bool) {
	f, err := os.Open(path)
	if err != nil {
		return desktopEntry{}, false
	}
	defer f.Close()
	e := desktopEntry{Path: path}
	keys := map[string]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			in = line == "[Desktop Entry]"
		case in:
			if k, v, ok := strings.Cut(line, "="); ok {
				keys[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	if keys["Type"] != "Application" || keys["Hidden"] == "true" || keys["Exec"] == "" {
		return desktopEntry{}, false
	}
	e.Name, e.Dir, e.WMClass, e.Terminal = unescapeValue(keys["Name"]), keys["Path"], keys["StartupWMClass"], keys["Terminal"] == "true"
	argv, ok := execArgs(unescapeValue(keys["Exec"]), e.Name, path)
	if !ok || len(argv) == 0 {
		return desktopEntry{}, false
	}
	e.Exec = argv
	return e, true
}

// unescapeValue undoes a string value's escapes (\s, \n, \t, \r, \\).
func unescapeValue(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	r := strings.NewReplacer(`\s`, " ", `\n`, "\n", `\t`, "\t", `\r`, "\r", `\\`, `\`)
	return r.Replace(v)
}

// execArgs splits an Exec value into arguments as the Desktop Entry Specification says: words
// split at spaces, double-quoted words with \", \`, \$ and \\ escaped, and field codes expanded
// for a launch without files (%f %F %u %U and the deprecated ones vanish, %c is the name, %k
// the file, %% a %). False when the quoting is broken.
func execArgs(exec, name, file string) ([]string, bool) {
	var args []string
	var cur strings.Builder
	word, quoted := false, false
	for i := 0; i < len(exec); i++ {
		c := exec[i]
		switch {
		case quoted && c == '\\' && i+1 < len(exec):
			i++
			cur.WriteByte(exec[i])
		case c == '"':
			quoted, word = !quoted, true
		case !quoted && c == ' ':
			if word {
				args = append(args, cur.String())
				cur.Reset()
				word = false
			}
		case !quoted && c == '%' && i+1 < len(exec):
			i++
			switch exec[i] {
			case '%':
				cur.WriteByte('%')
				word = true
			case 'c':
				cur.WriteString(name)
				word = true
			case 'k':
				cur.WriteString(file)
				word = true
			}
		default:
			cur.WriteByte(c)
			word = true
		}
	}
	if quoted {
		return nil, false
	}
	if word {
		args = append(args, cur.String())
	}
	// A field code alone as a word leaves an empty argument behind only when it was quoted.
	return args, true
}
