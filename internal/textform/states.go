package textform

import "github.com/axbus/axbus/model"

// silentStates are true of nearly every listed element, or say again what its role says: a
// reader is told the exceptions instead (disabled, collapsed).
const silentStates = model.StateVisible | model.StateShowing | model.StateEnabled |
	model.StateFocusable | model.StateSelectable | model.StateExpandable | model.StateMultiLine

// editableRoles are the roles whose editability goes without saying: a text entry is editable
// unless it says read_only, and a run of text is as editable as the entry it is in.
var editableRoles = map[model.Role]bool{
	model.RoleTextField: true, model.RoleTextArea: true, model.RolePassword: true,
	model.RoleSearchField: true, model.RoleText: true,
}

// stateWords are the states of an element that tell a reader something, disabled first:
// disabled as model.States.Disabled says, collapsed when it
// can expand and is not expanded, and the states that are not silent.
func stateWords(role model.Role, s model.States) []string {
	var out []string
	if s.Disabled() {
		out = append(out, "disabled")
	}
	if s.Has(model.StateExpandable) && !s.Has(model.StateExpanded) {
		out = append(out, "collapsed")
	}
	told := s &^ silentStates
	if editableRoles[role] {
		told &^= model.StateEditable
	}
	return append(out, told.Names()...)
}
