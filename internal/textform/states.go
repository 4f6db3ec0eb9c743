package textform

import "github.com/axbus/axbus/observer"

// silentStates are true of nearly every listed element, or say again what its role says: a
// reader is told the exceptions instead (disabled, collapsed).
const silentStates = observer.StateVisible | observer.StateShowing | observer.StateEnabled |
	observer.StateFocusable | observer.StateSelectable | observer.StateExpandable | observer.StateMultiLine

// editableRoles are the roles whose editability goes without saying: a text entry is editable
// unless it says read_only, and a run of text is as editable as the entry it is in.
var editableRoles = map[observer.Role]bool{
	observer.RoleTextField: true, observer.RoleTextArea: true, observer.RolePassword: true,
	observer.RoleSearchField: true, observer.RoleText: true,
}

// stateWords are the states of an element that tell a reader something, disabled first:
// disabled as observer.States.Disabled says, collapsed when it
// can expand and is not expanded, and the states that are not silent.
func stateWords(role observer.Role, s observer.States) []string {
	var out []string
	if s.Disabled() {
		out = append(out, "disabled")
	}
	if s.Has(observer.StateExpandable) && !s.Has(observer.StateExpanded) {
		out = append(out, "collapsed")
	}
	told := s &^ silentStates
	if editableRoles[role] {
		told &^= observer.StateEditable
	}
	return append(out, told.Names()...)
}
