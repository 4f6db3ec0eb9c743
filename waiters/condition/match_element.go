package condition

import (
	"cmp"
	"strings"

	"github.com/axbus/axbus/model"
)

// MatchesElement reports whether n passes the element test of the leaf c: its element fields,
// the text of a text condition, the value of a value condition, the state of a state
// condition. Which elements to test (the Target, the focused one, every one) and what Gone
// makes of the answer are for Holds; the engine uses this to re-check one element it read
// again. A secure element never passes a text or value test. Window conditions and all/any
// pass no element.
func (c *Condition) MatchesElement(n *model.Node) bool { return c.matchesElement(n, nil) }

// matchesElement is MatchesElement metered by mt (cost.go).
func (c *Condition) matchesElement(n *model.Node, mt *Meter) bool {
	switch c.Kind {
	case KindText, KindElement, KindFocused, KindValue:
		return c.fieldsMatch(n, mt) // text and value are element fields too
	case KindState:
		return c.fieldsMatch(n, mt) && n.States.Has(c.states().state) != c.Off
	}
	return false
}

// fieldsMatch reports whether n matches every element field c gives.
func (c *Condition) fieldsMatch(n *model.Node, mt *Meter) bool {
	st := c.states()
	return (c.Role == "" || hasRole(n, c.Role)) &&
		n.States.Has(st.want) && n.States&st.unwanted == 0 && // the cheap tests first
		fieldMatches(c.Name, cmp.Or(n.Name, n.Label), mt) && // a name read from a label is the name people see
		fieldMatches(c.Label, n.Label, mt) &&
		fieldMatches(c.Description, n.Description, mt) &&
		fieldMatches(c.Identifier, n.Identifier, mt) &&
		(c.Value == nil || hasValue(n, c.Value, mt)) &&
		(c.Text == nil || shows(n, c.Text, mt))
}

func fieldMatches(m *StringMatch, s string, mt *Meter) bool {
	return m == nil || m.matchesWithin(s, mt)
}

// hasRole reports whether role names n's role: the normalised one, the platform's, or the
// platform's subrole (AX), ignoring case.
func hasRole(n *model.Node, role string) bool {
	return strings.EqualFold(string(n.Role), role) || strings.EqualFold(n.PlatformRole, role) ||
		(n.Subrole != "" && strings.EqualFold(n.Subrole, role))
}

// isSecure reports whether n is a password field, by the backend's word or by its role.
func isSecure(n *model.Node) bool { return n.Secure || n.Role == model.RolePassword }

// hasValue reports whether n has a value matching m. A secure field has none to match.
func hasValue(n *model.Node, m *StringMatch, mt *Meter) bool {
	return n.HasValue && !isSecure(n) && m.matchesWithin(n.Value, mt)
}

// isEntry reports whether n is a field one types or picks a value into, whose value is what
// it shows.
func isEntry(n *model.Node) bool {
	switch n.Role {
	case model.RoleTextField, model.RoleTextArea, model.RoleSearchField, model.RoleComboBox, model.RoleSpinButton:
		return true
	}
	return n.States.Has(model.StateEditable)
}

// shows reports whether n shows text matching m: its own text (Text, else Name, else Label) or,
// for a field one types into, its value. A secure field shows nothing.
func shows(n *model.Node, m *StringMatch, mt *Meter) bool {
	if isSecure(n) {
		return false
	}
	if m.matchesWithin(cmp.Or(n.Text, n.Name, n.Label), mt) {
		return true
	}
	return n.HasValue && isEntry(n) && m.matchesWithin(n.Value, mt)
}

// compiledStates are a leaf's state names as sets.
type compiledStates struct {
	want, unwanted model.States // States, NotStates
	state          model.States // State
}

// states returns c's state sets: as Validate compiled them, or compiled now for a condition
// that was not validated.
func (c *Condition) states() compiledStates {
	if c.compiled != nil {
		return *c.compiled
	}
	return compileStates(c)
}

// compileStates resolves c's state names; Validate has refused unknown ones.
func compileStates(c *Condition) compiledStates {
	return compiledStates{want: stateSet(c.States), unwanted: stateSet(c.NotStates), state: stateSet([]string{c.State})}
}

func stateSet(names []string) model.States {
	var s model.States
	for _, name := range names {
		st, _ := model.ParseState(name)
		s |= st
	}
	return s
}
