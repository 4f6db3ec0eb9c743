package model

import (
	"encoding/json"
	"math/bits"
	"strings"
)

// States is a set of normalised element states, one bit each.
type States uint64

// The normalised states.
const (
	StateFocused States = 1 << iota
	StateFocusable
	StateEnabled
	StateVisible
	StateShowing
	StateSelected
	StateSelectable
	StateChecked
	StateMixed
	StateExpanded
	StateExpandable
	StateEditable
	StateMultiLine
	StateModal
	StateActive
	StatePressed
	StateBusy
	StateRequired
	StateInvalid
	StateReadOnly
	StateDefunct
	StateMinimized // a window iconified
	stateEnd
)

var stateNames = [...]string{
	"focused", "focusable", "enabled", "visible", "showing", "selected", "selectable", "checked",
	"mixed", "expanded", "expandable", "editable", "multi_line", "modal", "active", "pressed",
	"busy", "required", "invalid", "read_only", "defunct", "minimized",
}

// Has reports whether every state of want is set.
func (s States) Has(want States) bool { return s&want == want }

// Disabled reports whether an element with these states says it is not enabled (AT-SPI: neither
// enabled nor sensitive). One that reports no state at all (WebKitGTK's web view) says nothing:
// it is not taken as disabled, by a locator's check, an action by id or the text form.
func (s States) Disabled() bool { return s != 0 && !s.Has(StateEnabled) }

// Names lists the set states in a stable order.
func (s States) Names() []string {
	out := make([]string, 0, bits.OnesCount64(uint64(s)))
	for i := range stateNames {
		if s&(1<<i) != 0 {
			out = append(out, stateNames[i])
		}
	}
	return out
}

// ParseState returns the state named name (case-insensitive), or false.
func ParseState(name string) (States, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for i, n := range stateNames {
		if n == name {
			return 1 << i, true
		}
	}
	return 0, false
}

// StateNames lists every known state name.
func StateNames() []string { return append([]string(nil), stateNames[:]...) }

func (s States) String() string { return strings.Join(s.Names(), ",") }

// MarshalJSON writes the set as an array of names.
func (s States) MarshalJSON() ([]byte, error) { return json.Marshal(s.Names()) }

// UnmarshalJSON reads an array of names; unknown names are ignored so that newer daemons can add states.
func (s *States) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return err
	}
	*s = 0
	for _, n := range names {
		if st, ok := ParseState(n); ok {
			*s |= st
		}
	}
	return nil
}

var _ = [1]struct{}{}[len(stateNames)-bits.TrailingZeros64(uint64(stateEnd))]
