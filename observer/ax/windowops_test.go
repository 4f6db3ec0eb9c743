package ax

import (
	"testing"

	"github.com/axbus/axbus/model"
)

func TestMatchWindow(t *testing.T) {
	a := model.Window{ID: "w1", Title: "Notes", Ref: "ax:9:1"}
	b := model.Window{ID: "w2", Title: "Untitled", Ref: "ax:9:2"}
	c := model.Window{ID: "w3", Title: "Untitled", Ref: "ax:9:3"}
	for _, tc := range []struct {
		name string
		wins []model.Window
		win  model.Window
		want model.NodeRef // "" for no match
	}{
		{"by id", []model.Window{a, b}, model.Window{ID: "w2", Title: "Renamed"}, "ax:9:2"},
		{"by title when the id is gone", []model.Window{a, b}, model.Window{ID: "w7", Title: "Notes"}, "ax:9:1"},
		{"by title, ignoring case and space", []model.Window{a, b}, model.Window{Title: " notes "}, "ax:9:1"},
		{"an ambiguous title", []model.Window{a, b, c}, model.Window{Title: "Untitled"}, ""},
		{"the only window", []model.Window{b}, model.Window{ID: "w8", Title: "Other"}, "ax:9:2"},
		{"nothing like it", []model.Window{a, b}, model.Window{ID: "w8", Title: "Other"}, ""},
		{"no windows", nil, model.Window{ID: "w1"}, ""},
	} {
		got, ok := MatchWindow(tc.wins, tc.win)
		if ok != (tc.want != "") || got.Ref != tc.want {
			t.Errorf("%s: %+v %v, want %q", tc.name, got, ok, tc.want)
		}
	}
}
