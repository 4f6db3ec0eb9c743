package ax

import (
	"slices"
	"testing"
)

func TestKindOf(t *testing.T) {
	for entry, want := range map[string]EntryKind{
		"com.apple.calculator":         EntryBundleID,
		"com.microsoft.VSCode":         EntryBundleID,
		"org.mozilla.firefox":          EntryBundleID,
		"Calculator":                   EntryName,
		"Visual Studio Code":           EntryName,
		"Calculator.app":               EntryName,
		"Dr. Example":                  EntryName, // a space: a name
		".hidden":                      EntryName,
		"trailing.":                    EntryName,
		"/Applications/Calculator.app": EntryPath,
		"~/Applications/My App.app":    EntryPath,
		"/usr/bin/true":                EntryName, // not an app bundle: nothing to launch by it
	} {
		if got := KindOf(entry); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", entry, got, want)
		}
	}
}

func TestAppCandidates(t *testing.T) {
	got := AppCandidates("Calculator", "/Users/ann")
	want := []string{"/Applications/Calculator.app", "/System/Applications/Calculator.app",
		"/Applications/Utilities/Calculator.app", "/System/Applications/Utilities/Calculator.app",
		"/Users/ann/Applications/Calculator.app"}
	if !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
	if got := AppCandidates("Terminal.app", ""); len(got) != 4 || got[0] != "/Applications/Terminal.app" {
		t.Errorf("a name with .app, no home: %v", got)
	}
	for _, bad := range []string{"", "  ", "../etc/x", "a/b"} {
		if got := AppCandidates(bad, "/Users/ann"); got != nil {
			t.Errorf("AppCandidates(%q) = %v, want none", bad, got)
		}
	}
}

func TestExpandHomeAndBundleName(t *testing.T) {
	if got := ExpandHome("~/Applications/X.app", "/Users/ann"); got != "/Users/ann/Applications/X.app" {
		t.Errorf("ExpandHome: %q", got)
	}
	if got := ExpandHome("/Applications/X.app", "/Users/ann"); got != "/Applications/X.app" {
		t.Errorf("ExpandHome of an absolute path: %q", got)
	}
	if got := BundleName("/Applications/Visual Studio Code.app"); got != "Visual Studio Code" {
		t.Errorf("BundleName: %q", got)
	}
}
