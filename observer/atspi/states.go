package atspi

import (
	"strings"

	"github.com/axbus/axbus/model"
)

// The AT-SPI states (AtspiStateType in atspi-constants.h) that the backend reads itself.
const (
	stateActive        = 1
	stateChecked       = 4
	stateDefunct       = 6
	stateEditable      = 7
	stateFocusable     = 11
	stateFocused       = 12
	stateModal         = 16
	stateSelectable    = 22
	stateShowing       = 25
	stateVisible       = 30
	stateIndeterminate = 32
	stateCount         = 44 // ATSPI_STATE_LAST_DEFINED
)

// stateInfo is one AT-SPI state: its name (the enum's nick, as in event details such as
// "object:state-changed:checked") and the normalised state, 0 when there is none.
type stateInfo struct {
	name  string
	state model.States
}

// stateTable lists every AtspiStateType of at-spi2-core 2.46 by number (bit i of the 64-bit set
// that GetState returns as two 32-bit words, low word first). Names come from the installed
// libatspi's GEnum. ENABLED and SENSITIVE both mean enabled: GTK4 sets only SENSITIVE.
var stateTable = [stateCount]stateInfo{
	0:  {"invalid", 0},
	1:  {"active", model.StateActive},
	2:  {"armed", 0},
	3:  {"busy", model.StateBusy},
	4:  {"checked", model.StateChecked},
	5:  {"collapsed", model.StateExpandable},
	6:  {"defunct", model.StateDefunct},
	7:  {"editable", model.StateEditable},
	8:  {"enabled", model.StateEnabled},
	9:  {"expandable", model.StateExpandable},
	10: {"expanded", model.StateExpanded},
	11: {"focusable", model.StateFocusable},
	12: {"focused", model.StateFocused},
	13: {"has-tooltip", 0},
	14: {"horizontal", 0},
	15: {"iconified", model.StateMinimized},
	16: {"modal", model.StateModal},
	17: {"multi-line", model.StateMultiLine},
	18: {"multiselectable", 0},
	19: {"opaque", 0},
	20: {"pressed", model.StatePressed},
	21: {"resizable", 0},
	22: {"selectable", model.StateSelectable},
	23: {"selected", model.StateSelected},
	24: {"sensitive", model.StateEnabled},
	25: {"showing", model.StateShowing},
	26: {"single-line", 0},
	27: {"stale", 0},
	28: {"transient", 0},
	29: {"vertical", 0},
	30: {"visible", model.StateVisible},
	31: {"manages-descendants", 0},
	32: {"indeterminate", model.StateMixed},
	33: {"required", model.StateRequired},
	34: {"truncated", 0},
	35: {"animated", 0},
	36: {"invalid-entry", model.StateInvalid},
	37: {"supports-autocompletion", 0},
	38: {"selectable-text", 0},
	39: {"is-default", 0},
	40: {"visited", 0},
	41: {"checkable", 0},
	42: {"has-popup", 0},
	43: {"read-only", model.StateReadOnly},
}

// stateSet is the 64-bit AT-SPI state set.
type stateSet uint64

// makeStateSet joins the two words GetState returns (low word first); missing words are 0.
func makeStateSet(words []uint32) stateSet {
	var s stateSet
	if len(words) > 0 {
		s = stateSet(words[0])
	}
	if len(words) > 1 {
		s |= stateSet(words[1]) << 32
	}
	return s
}

// has reports whether AT-SPI state i is set.
func (s stateSet) has(i int) bool { return i >= 0 && i < 64 && s&(1<<uint(i)) != 0 }

// States maps an AT-SPI state set (the two words of GetState) onto normalised states.
func States(words []uint32) model.States { return makeStateSet(words).normalised() }

// nodeStates normalises the state set of an element of this role. A button that is pressed is
// a toggle button that is on (GTK 4.8 has no toggle-button role and signals "on" as pressed): it
// is checked too, so that toggle, check and uncheck, their proofs and state=checked conditions
// see one on state whatever the toolkit calls it.
func nodeStates(role uint32, s stateSet) model.States {
	out := s.normalised()
	if (role == rolePushButton || role == roleToggleButton) && out.Has(model.StatePressed) {
		out |= model.StateChecked
	}
	return out
}

func (s stateSet) normalised() model.States {
	var out model.States
	for i := range stateTable {
		if s.has(i) {
			out |= stateTable[i].state
		}
	}
	return out
}

// StateName is the AT-SPI name of state i ("checked", "multi-line"), or "" when unknown.
func StateName(i int) string {
	if i >= 0 && i < stateCount {
		return stateTable[i].name
	}
	return ""
}

// StateNumber returns the number of the AT-SPI state called name (as in an event's detail), or false.
func StateNumber(name string) (int, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for i, si := range stateTable {
		if si.name == name {
			return i, true
		}
	}
	return 0, false
}

// normalisedState is the normalised state of the AT-SPI state called name, or 0.
func normalisedState(name string) model.States {
	if i, ok := StateNumber(name); ok {
		return stateTable[i].state
	}
	return 0
}
