package ax

import (
	"testing"

	"github.com/axbus/axbus/observer"
)

func TestMatchWindow(t *testing.T) {
	a := observer.Window{ID: "w1", Title: "Notes", Ref: "ax:9:1"}
	b := observer.Window{ID: "w2", Title: "Untitled", Ref: "ax:9:2"}
	c := observer.Window{ID: "w3", Title: "Untitled", Ref: "ax:9:3"}
	for _, tc := range []struct {
		name string
		wins []observer.Window
		win  observer.Window
		want observer.NodeRef // "" for no match
	}{
		{"by id", []observer.Window{a, b}, observer.Window{ID: "w2", Title: "Renamed"}, "ax:9:2"},
		{"by title when the id is gone", []observer.Window{a, b}, observer.Window{ID: "w7", Title: "Notes"}, "ax:9:1"},
		{"by title, ignoring case and space", []observer.Window{a, b}, observer.Window{Title: " notes "}, "ax:9:1"},
		{"an ambiguous title", []observer.Window{a, b, c}, observer.Window{Title: "Untitled"}, ""},
		{"the only window", []observer.Window{b}, observer.Window{ID: "w8", Title: "Other"}, "ax:9:2"},
		{"nothing like it", []observer.Window{a, b}, observer.Window{ID: "w8", Title: "Other"}, ""},
		{"no windows", nil, observer.Window{ID: "w1"}, ""},
	} {
		got, ok := MatchWindow(tc.wins, tc.win)
		if ok != (tc.want != "") || got.Ref != tc.want {
			t.Errorf("%s: %+v %v, want %q", tc.name, got, ok, tc.want)
		}
	}
}
