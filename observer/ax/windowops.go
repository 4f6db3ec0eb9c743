package ax

import (
	"strings"

	"github.com/axbus/axbus/model"
)

// MatchWindow picks, among an app's windows as Windows lists them, the one that shows win: the
// one with its id, else the only one with its title (compared as the Linux backend does: exactly,
// then ignoring case and surrounding space), else the app's only window. A window whose handle
// the table still holds is used as it is, without a listing (windowops_darwin.go).
func MatchWindow(wins []model.Window, win model.Window) (model.Window, bool) {
	if win.ID != "" {
		for _, w := range wins {
			if w.ID == win.ID {
				return w, true
			}
		}
	}
	for _, same := range []func(a, b string) bool{
		func(a, b string) bool { return a == b },
		func(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) },
	} {
		var found []model.Window
		for _, w := range wins {
			if same(w.Title, win.Title) {
				found = append(found, w)
			}
		}
		if len(found) == 1 {
			return found[0], true
		}
		if len(found) > 1 {
			return model.Window{}, false // ambiguous: never change the wrong window
		}
	}
	if len(wins) == 1 {
		return wins[0], true
	}
	return model.Window{}, false
}
