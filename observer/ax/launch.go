package ax

import (
	"path/filepath"
	"strings"
)

// The platform-free half of launching (launch_darwin.go makes the calls): what a launch's entry
// names, and where an app of that name is installed.

// EntryKind is what a launch's entry names on macOS.
type EntryKind int

// The kinds of entry.
const (
	EntryName     EntryKind = iota // an app's name: "Calculator", "Visual Studio Code"
	EntryBundleID                  // a bundle id: "com.apple.calculator"
	EntryPath                      // an app bundle's path: "/Applications/Calculator.app", "~/Applications/X.app"
)

// KindOf says what entry names: a path when it starts with / or ~/ and ends in .app; a bundle id
// when it has a dot and no space or slash (and is not "X.app", an app's bundle name); else a name.
func KindOf(entry string) EntryKind {
	lower := strings.ToLower(entry)
	switch {
	case (strings.HasPrefix(entry, "/") || strings.HasPrefix(entry, "~/")) && strings.HasSuffix(lower, ".app"):
		return EntryPath
	case strings.Contains(entry, ".") && !strings.ContainsAny(entry, " \t/") && !strings.HasSuffix(lower, ".app") &&
		!strings.HasPrefix(entry, ".") && !strings.HasSuffix(entry, "."):
		return EntryBundleID
	}
	return EntryName
}

// ExpandHome is path with a leading ~/ made home's.
func ExpandHome(path, home string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return path
}

// AppCandidates lists, in the order Finder's Applications folders are searched, where the app
// called name ("Calculator", or "Calculator.app") may be installed; home is the user's home
// ("" leaves ~/Applications out).
func AppCandidates(name, home string) []string {
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsRune(name, '/') {
		return nil
	}
	if !strings.HasSuffix(strings.ToLower(name), ".app") {
		name += ".app"
	}
	dirs := []string{"/Applications", "/System/Applications", "/Applications/Utilities", "/System/Applications/Utilities"}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, "Applications"))
	}
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = filepath.Join(d, name)
	}
	return out
}

// BundleName is an app bundle's name without .app: "Calculator" for /Applications/Calculator.app.
func BundleName(path string) string {
	base := filepath.Base(path)
	if strings.HasSuffix(strings.ToLower(base), ".app") {
		base = base[:len(base)-len(".app")]
	}
	return base
}
