package model

// Role is a normalised element role. Backends map their platform roles onto these and keep the
// platform's own name in Node.PlatformRole, so agents can match either.
type Role string

// The normalised roles. RoleUnknown is used when a platform role has no counterpart here.
const (
	RoleApplication  Role = "application"
	RoleWindow       Role = "window"
	RoleDialog       Role = "dialog"
	RoleSheet        Role = "sheet"
	RoleButton       Role = "button"
	RoleToggleButton Role = "toggle_button"
	RoleCheckbox     Role = "checkbox"
	RoleRadio        Role = "radio"
	RoleSwitch       Role = "switch"
	RoleTextField    Role = "text_field"
	RoleTextArea     Role = "text_area"
	RolePassword     Role = "password_field"
	RoleSearchField  Role = "search_field"
	RoleText         Role = "text"
	RoleLabel        Role = "label"
	RoleHeading      Role = "heading"
	RoleParagraph    Role = "paragraph"
	RoleLink         Role = "link"
	RoleImage        Role = "image"
	RoleList         Role = "list"
	RoleListItem     Role = "list_item"
	RoleTable        Role = "table"
	RoleRow          Role = "row"
	RoleCell         Role = "cell"
	RoleColumn       Role = "column"
	RoleColumnHeader Role = "column_header"
	RoleOutline      Role = "outline"
	RoleTree         Role = "tree"
	RoleTreeItem     Role = "tree_item"
	RoleScrollArea   Role = "scroll_area"
	RoleScrollBar    Role = "scroll_bar"
	RoleWebArea      Role = "web_area"
	RoleGroup        Role = "group"
	RolePanel        Role = "panel"
	RoleSplitGroup   Role = "split_group"
	RoleToolbar      Role = "toolbar"
	RoleMenuBar      Role = "menu_bar"
	RoleMenu         Role = "menu"
	RoleMenuItem     Role = "menu_item"
	RoleMenuButton   Role = "menu_button"
	RoleComboBox     Role = "combo_box"
	RolePopUpButton  Role = "pop_up_button"
	RoleTabList      Role = "tab_list"
	RoleTab          Role = "tab"
	RoleSlider       Role = "slider"
	RoleSpinButton   Role = "spin_button"
	RoleProgress     Role = "progress"
	RoleSeparator    Role = "separator"
	RoleStatusBar    Role = "status_bar"
	RoleToolTip      Role = "tooltip"
	RoleAlert        Role = "alert"
	RoleFiller       Role = "filler"
	RoleUnknown      Role = "unknown"
)

// Clips reports whether an element of this role narrows the visible clip for its subtree:
// content outside a scroll area's or web area's viewport is not on screen.
func (r Role) Clips() bool { return r == RoleScrollArea || r == RoleWebArea }

// IsWindowLike reports whether the role is a top-level surface (a window, dialog or sheet).
func (r Role) IsWindowLike() bool { return r == RoleWindow || r == RoleDialog || r == RoleSheet }
