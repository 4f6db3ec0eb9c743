package observer_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/axbus/axbus/observer"
)

func TestSplitKeys(t *testing.T) {
	for in, want := range map[string][]observer.KeyChord{
		"ctrl+a":             {{Mods: []string{"ctrl"}, Key: "a"}},
		"Return":             {{Mods: []string{}, Key: "Return"}},
		"ctrl+shift+s Tab":   {{Mods: []string{"ctrl", "shift"}, Key: "s"}, {Mods: []string{}, Key: "Tab"}},
		"ctrl++":             {{Mods: []string{"ctrl"}, Key: "+"}},
		"+":                  {{Mods: []string{}, Key: "+"}},
		"  cmd+a  BackSpace": {{Mods: []string{"cmd"}, Key: "a"}, {Mods: []string{}, Key: "BackSpace"}},
	} {
		got, err := observer.SplitKeys(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %+v %v, want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "   ", "ctrl+", "+a+", "ctrl++a", strings.Repeat("a ", 200)} {
		if got, err := observer.SplitKeys(bad); err == nil {
			t.Errorf("%q: %+v, want an error", bad, got)
		}
	}
}

// FuzzSplitKeys: any input gives chords with a key each, or an error; never a panic.
func FuzzSplitKeys(f *testing.F) {
	for _, s := range []string{"ctrl+a", "ctrl++", "+", "a+b+c d", "++", "+++", " "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		chords, err := observer.SplitKeys(s)
		if err != nil {
			return
		}
		for _, c := range chords {
			if c.Key == "" {
				t.Fatalf("%q: a chord without a key: %+v", s, chords)
			}
		}
	})
}
