package text

import "github.com/axbus/axbus/model"

// The role tables of text assembly (assemble.go): which elements give which text, and which lay out
// lines of their own.

func roleSet(roles ...model.Role) map[model.Role]bool {
	m := make(map[model.Role]bool, len(roles))
	for _, r := range roles {
		m[r] = true
	}
	return m
}

// valueTextRoles hold what the user typed or set: their text is their value (a read-only text
// view's, its text), never their name, which is a label beside or inside them. Their children are
// not read: an open combo box's options are not its text, and a web text area repeats its value
// in static texts.
var valueTextRoles = roleSet(model.RoleTextField, model.RoleTextArea, model.RoleSearchField, model.RoleComboBox,
	model.RoleSpinButton, model.RoleSlider)

// namedByTextRoles are static texts and labels: their name is their text (AT-SPI labels, whose
// text a plain read leaves out, carry it only there).
var namedByTextRoles = roleSet(model.RoleText, model.RoleLabel)

// layoutRoles lay other elements out. Their names (a window's title, a scroll area's or a table's
// accessible description, a web page's title) are not text on screen, so they are never read,
// even when nothing inside gives text. A menu is not one of them: on AT-SPI it is the title of a
// menu in a menu bar or of a submenu, shown while its items are hidden.
var layoutRoles = roleSet(
	model.RoleApplication, model.RoleWindow, model.RoleDialog, model.RoleSheet, model.RoleScrollArea,
	model.RoleWebArea, model.RoleSplitGroup, model.RoleSeparator, model.RoleFiller, model.RoleGroup,
	model.RolePanel, model.RoleToolbar, model.RoleMenuBar, model.RoleTabList, model.RoleStatusBar,
	model.RoleTable, model.RoleList, model.RoleOutline, model.RoleTree, model.RoleRow,
)

// unreadRoles are skipped with their subtrees: a scroll bar's parts say nothing, and an AX
// table's columns hold the cells its rows hold already.
var unreadRoles = roleSet(model.RoleScrollBar, model.RoleColumn)

// inlineRoles sit inside a line of their container: static text, links and controls side by side
// join on one line. Every other role is a container whose children make lines of their own.
var inlineRoles = roleSet(
	model.RoleText, model.RoleLabel, model.RoleLink, model.RoleImage, model.RoleButton,
	model.RoleToggleButton, model.RoleCheckbox, model.RoleRadio, model.RoleSwitch, model.RoleMenuButton,
	model.RolePopUpButton, model.RoleMenu, model.RoleMenuItem, model.RoleTab, model.RoleTextField,
	model.RoleTextArea, model.RolePassword, model.RoleSearchField, model.RoleComboBox, model.RoleSlider,
	model.RoleSpinButton, model.RoleProgress, model.RoleCell, model.RoleColumnHeader,
)

// cellRoles are table cells by role. A child of a row is a cell too, whatever its role.
var cellRoles = roleSet(model.RoleCell, model.RoleColumnHeader)

// rowHolderRoles hold rows: outside web content, each child of one that is not a cell is a row
// (a native list's items, an AX table's header group), so several texts side by side in it are
// its cells.
var rowHolderRoles = roleSet(model.RoleTable, model.RoleOutline, model.RoleTree, model.RoleList)

// isTextRow reports whether an element is a row whose children are cells. In web content only
// real rows count: a web list item holds inline runs, not cells.
func isTextRow(role, parent model.Role, inWeb bool) bool {
	if role == model.RoleRow {
		return true
	}
	if inWeb || cellRoles[role] {
		return false
	}
	return role == model.RoleListItem || role == model.RoleTreeItem || rowHolderRoles[parent]
}
