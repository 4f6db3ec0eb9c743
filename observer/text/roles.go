package text

import "github.com/axbus/axbus/observer"

// The role tables of text assembly (assemble.go): which elements give which text, and which lay out
// lines of their own.

func roleSet(roles ...observer.Role) map[observer.Role]bool {
	m := make(map[observer.Role]bool, len(roles))
	for _, r := range roles {
		m[r] = true
	}
	return m
}

// valueTextRoles hold what the user typed or set: their text is their value (a read-only text
// view's, its text), never their name, which is a label beside or inside them. Their children are
// not read: an open combo box's options are not its text, and a web text area repeats its value
// in static texts.
var valueTextRoles = roleSet(observer.RoleTextField, observer.RoleTextArea, observer.RoleSearchField, observer.RoleComboBox,
	observer.RoleSpinButton, observer.RoleSlider)

// namedByTextRoles are static texts and labels: their name is their text (AT-SPI labels, whose
// text a plain read leaves out, carry it only there).
var namedByTextRoles = roleSet(observer.RoleText, observer.RoleLabel)

// layoutRoles lay other elements out. Their names (a window's title, a scroll area's or a table's
// accessible description, a web page's title) are not text on screen, so they are never read,
// even when nothing inside gives text. A menu is not one of them: on AT-SPI it is the title of a
// menu in a menu bar or of a submenu, shown while its items are hidden.
var layoutRoles = roleSet(
	observer.RoleApplication, observer.RoleWindow, observer.RoleDialog, observer.RoleSheet, observer.RoleScrollArea,
	observer.RoleWebArea, observer.RoleSplitGroup, observer.RoleSeparator, observer.RoleFiller, observer.RoleGroup,
	observer.RolePanel, observer.RoleToolbar, observer.RoleMenuBar, observer.RoleTabList, observer.RoleStatusBar,
	observer.RoleTable, observer.RoleList, observer.RoleOutline, observer.RoleTree, observer.RoleRow,
)

// unreadRoles are skipped with their subtrees: a scroll bar's parts say nothing, and an AX
// table's columns hold the cells its rows hold already.
var unreadRoles = roleSet(observer.RoleScrollBar, observer.RoleColumn)

// inlineRoles sit inside a line of their container: static text, links and controls side by side
// join on one line. Every other role is a container whose children make lines of their own.
var inlineRoles = roleSet(
	observer.RoleText, observer.RoleLabel, observer.RoleLink, observer.RoleImage, observer.RoleButton,
	observer.RoleToggleButton, observer.RoleCheckbox, observer.RoleRadio, observer.RoleSwitch, observer.RoleMenuButton,
	observer.RolePopUpButton, observer.RoleMenu, observer.RoleMenuItem, observer.RoleTab, observer.RoleTextField,
	observer.RoleTextArea, observer.RolePassword, observer.RoleSearchField, observer.RoleComboBox, observer.RoleSlider,
	observer.RoleSpinButton, observer.RoleProgress, observer.RoleCell, observer.RoleColumnHeader,
)

// cellRoles are table cells by role. A child of a row is a cell too, whatever its role.
var cellRoles = roleSet(observer.RoleCell, observer.RoleColumnHeader)

// rowHolderRoles hold rows: outside web content, each child of one that is not a cell is a row
// (a native list's items, an AX table's header group), so several texts side by side in it are
// its cells.
var rowHolderRoles = roleSet(observer.RoleTable, observer.RoleOutline, observer.RoleTree, observer.RoleList)

// isTextRow reports whether an element is a row whose children are cells. In web content only
// real rows count: a web list item holds inline runs, not cells.
func isTextRow(role, parent observer.Role, inWeb bool) bool {
	if role == observer.RoleRow {
		return true
	}
	if inWeb || cellRoles[role] {
		return false
	}
	return role == observer.RoleListItem || role == observer.RoleTreeItem || rowHolderRoles[parent]
}
