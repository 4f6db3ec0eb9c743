package atspi

import (
	"fmt"
	"strings"

	"github.com/axbus/axbus/model"
)

// The numeric AT-SPI roles (AtspiRole in atspi-constants.h) that the backend treats specially.
// Roles are matched by number, never by name: toolkits disagree on names (GTK4 calls a push
// button "button" and a password field "text box").
const (
	roleInvalid       = 0
	roleAlert         = 2
	roleCheckBox      = 7
	roleCheckMenuItem = 8
	roleColorChooser  = 9
	roleComboBox      = 11
	roleDialog        = 16
	roleFileChooser   = 19
	roleFontChooser   = 22
	roleFrame         = 23
	roleLabel         = 29
	roleMenu          = 33
	rolePageTab       = 37
	rolePasswordText  = 40
	rolePushButton    = 43
	rolePopupMenu     = 41
	roleRadioButton   = 44
	roleRadioMenuItem = 45
	roleSpinButton    = 52
	roleTerminal      = 60
	roleText          = 61
	roleToggleButton  = 62
	roleToolTip       = 64
	roleWindow        = 69
	roleApplication   = 75
	roleAutocomplete  = 76
	roleEditbar       = 77
	roleEntry         = 79
	roleListBox       = 98
	roleNotification  = 101
	roleSwitch        = 130
	// roleCount is the number of roles the table knows (0 to ATSPI_ROLE_SWITCH). It is
	// ATSPI_ROLE_LAST_DEFINED of at-spi2-core 2.50 and later; 2.46 stops before switch.
	roleCount = 131
)

// roleInfo is one AT-SPI role: the canonical name (what libatspi's atspi_role_get_name returns:
// the enum's nick with spaces) and the normalised role.
type roleInfo struct {
	name string
	role model.Role
}

// roleTable lists every AtspiRole of at-spi2-core, indexed by number (ATSPI_ROLE_INVALID 0 to
// ATSPI_ROLE_SWITCH 130, which at-spi2-core added after 2.46). The names were read from the
// installed libatspi's GEnum (Atspi-2.0 typelib, at-spi2-core 2.46); the enum is append-only, so
// a number never changes its meaning. Roles with no counterpart map to the closest container
// (group, panel) or to RoleUnknown.
var roleTable = [roleCount]roleInfo{
	0:   {"invalid", model.RoleUnknown},                  // ATSPI_ROLE_INVALID
	1:   {"accelerator label", model.RoleLabel},          // ATSPI_ROLE_ACCELERATOR_LABEL
	2:   {"alert", model.RoleAlert},                      // ATSPI_ROLE_ALERT
	3:   {"animation", model.RoleImage},                  // ATSPI_ROLE_ANIMATION
	4:   {"arrow", model.RoleImage},                      // ATSPI_ROLE_ARROW
	5:   {"calendar", model.RoleGroup},                   // ATSPI_ROLE_CALENDAR
	6:   {"canvas", model.RoleGroup},                     // ATSPI_ROLE_CANVAS
	7:   {"check box", model.RoleCheckbox},               // ATSPI_ROLE_CHECK_BOX
	8:   {"check menu item", model.RoleMenuItem},         // ATSPI_ROLE_CHECK_MENU_ITEM
	9:   {"color chooser", model.RoleDialog},             // ATSPI_ROLE_COLOR_CHOOSER
	10:  {"column header", model.RoleColumnHeader},       // ATSPI_ROLE_COLUMN_HEADER
	11:  {"combo box", model.RoleComboBox},               // ATSPI_ROLE_COMBO_BOX
	12:  {"date editor", model.RoleTextField},            // ATSPI_ROLE_DATE_EDITOR
	13:  {"desktop icon", model.RoleImage},               // ATSPI_ROLE_DESKTOP_ICON
	14:  {"desktop frame", model.RoleWindow},             // ATSPI_ROLE_DESKTOP_FRAME
	15:  {"dial", model.RoleSlider},                      // ATSPI_ROLE_DIAL
	16:  {"dialog", model.RoleDialog},                    // ATSPI_ROLE_DIALOG
	17:  {"directory pane", model.RoleGroup},             // ATSPI_ROLE_DIRECTORY_PANE
	18:  {"drawing area", model.RoleImage},               // ATSPI_ROLE_DRAWING_AREA
	19:  {"file chooser", model.RoleDialog},              // ATSPI_ROLE_FILE_CHOOSER
	20:  {"filler", model.RoleFiller},                    // ATSPI_ROLE_FILLER
	21:  {"focus traversable", model.RoleUnknown},        // ATSPI_ROLE_FOCUS_TRAVERSABLE
	22:  {"font chooser", model.RoleDialog},              // ATSPI_ROLE_FONT_CHOOSER
	23:  {"frame", model.RoleWindow},                     // ATSPI_ROLE_FRAME
	24:  {"glass pane", model.RolePanel},                 // ATSPI_ROLE_GLASS_PANE
	25:  {"html container", model.RoleWebArea},           // ATSPI_ROLE_HTML_CONTAINER
	26:  {"icon", model.RoleImage},                       // ATSPI_ROLE_ICON
	27:  {"image", model.RoleImage},                      // ATSPI_ROLE_IMAGE
	28:  {"internal frame", model.RolePanel},             // ATSPI_ROLE_INTERNAL_FRAME
	29:  {"label", model.RoleLabel},                      // ATSPI_ROLE_LABEL
	30:  {"layered pane", model.RolePanel},               // ATSPI_ROLE_LAYERED_PANE
	31:  {"list", model.RoleList},                        // ATSPI_ROLE_LIST
	32:  {"list item", model.RoleListItem},               // ATSPI_ROLE_LIST_ITEM
	33:  {"menu", model.RoleMenu},                        // ATSPI_ROLE_MENU
	34:  {"menu bar", model.RoleMenuBar},                 // ATSPI_ROLE_MENU_BAR
	35:  {"menu item", model.RoleMenuItem},               // ATSPI_ROLE_MENU_ITEM
	36:  {"option pane", model.RolePanel},                // ATSPI_ROLE_OPTION_PANE
	37:  {"page tab", model.RoleTab},                     // ATSPI_ROLE_PAGE_TAB
	38:  {"page tab list", model.RoleTabList},            // ATSPI_ROLE_PAGE_TAB_LIST
	39:  {"panel", model.RolePanel},                      // ATSPI_ROLE_PANEL
	40:  {"password text", model.RolePassword},           // ATSPI_ROLE_PASSWORD_TEXT
	41:  {"popup menu", model.RoleMenu},                  // ATSPI_ROLE_POPUP_MENU
	42:  {"progress bar", model.RoleProgress},            // ATSPI_ROLE_PROGRESS_BAR
	43:  {"push button", model.RoleButton},               // ATSPI_ROLE_PUSH_BUTTON
	44:  {"radio button", model.RoleRadio},               // ATSPI_ROLE_RADIO_BUTTON
	45:  {"radio menu item", model.RoleMenuItem},         // ATSPI_ROLE_RADIO_MENU_ITEM
	46:  {"root pane", model.RolePanel},                  // ATSPI_ROLE_ROOT_PANE
	47:  {"row header", model.RoleCell},                  // ATSPI_ROLE_ROW_HEADER
	48:  {"scroll bar", model.RoleScrollBar},             // ATSPI_ROLE_SCROLL_BAR
	49:  {"scroll pane", model.RoleScrollArea},           // ATSPI_ROLE_SCROLL_PANE
	50:  {"separator", model.RoleSeparator},              // ATSPI_ROLE_SEPARATOR
	51:  {"slider", model.RoleSlider},                    // ATSPI_ROLE_SLIDER
	52:  {"spin button", model.RoleSpinButton},           // ATSPI_ROLE_SPIN_BUTTON
	53:  {"split pane", model.RoleSplitGroup},            // ATSPI_ROLE_SPLIT_PANE
	54:  {"status bar", model.RoleStatusBar},             // ATSPI_ROLE_STATUS_BAR
	55:  {"table", model.RoleTable},                      // ATSPI_ROLE_TABLE
	56:  {"table cell", model.RoleCell},                  // ATSPI_ROLE_TABLE_CELL
	57:  {"table column header", model.RoleColumnHeader}, // ATSPI_ROLE_TABLE_COLUMN_HEADER
	58:  {"table row header", model.RoleCell},            // ATSPI_ROLE_TABLE_ROW_HEADER
	59:  {"tearoff menu item", model.RoleMenuItem},       // ATSPI_ROLE_TEAROFF_MENU_ITEM
	60:  {"terminal", model.RoleTextArea},                // ATSPI_ROLE_TERMINAL
	61:  {"text", model.RoleTextField},                   // ATSPI_ROLE_TEXT
	62:  {"toggle button", model.RoleToggleButton},       // ATSPI_ROLE_TOGGLE_BUTTON
	63:  {"tool bar", model.RoleToolbar},                 // ATSPI_ROLE_TOOL_BAR
	64:  {"tool tip", model.RoleToolTip},                 // ATSPI_ROLE_TOOL_TIP
	65:  {"tree", model.RoleTree},                        // ATSPI_ROLE_TREE
	66:  {"tree table", model.RoleOutline},               // ATSPI_ROLE_TREE_TABLE
	67:  {"unknown", model.RoleUnknown},                  // ATSPI_ROLE_UNKNOWN
	68:  {"viewport", model.RoleGroup},                   // ATSPI_ROLE_VIEWPORT
	69:  {"window", model.RoleWindow},                    // ATSPI_ROLE_WINDOW
	70:  {"extended", model.RoleUnknown},                 // ATSPI_ROLE_EXTENDED
	71:  {"header", model.RoleGroup},                     // ATSPI_ROLE_HEADER
	72:  {"footer", model.RoleGroup},                     // ATSPI_ROLE_FOOTER
	73:  {"paragraph", model.RoleParagraph},              // ATSPI_ROLE_PARAGRAPH
	74:  {"ruler", model.RoleUnknown},                    // ATSPI_ROLE_RULER
	75:  {"application", model.RoleApplication},          // ATSPI_ROLE_APPLICATION
	76:  {"autocomplete", model.RoleComboBox},            // ATSPI_ROLE_AUTOCOMPLETE
	77:  {"editbar", model.RoleTextField},                // ATSPI_ROLE_EDITBAR
	78:  {"embedded", model.RoleGroup},                   // ATSPI_ROLE_EMBEDDED
	79:  {"entry", model.RoleTextField},                  // ATSPI_ROLE_ENTRY
	80:  {"chart", model.RoleImage},                      // ATSPI_ROLE_CHART
	81:  {"caption", model.RoleLabel},                    // ATSPI_ROLE_CAPTION
	82:  {"document frame", model.RoleWebArea},           // ATSPI_ROLE_DOCUMENT_FRAME
	83:  {"heading", model.RoleHeading},                  // ATSPI_ROLE_HEADING
	84:  {"page", model.RoleGroup},                       // ATSPI_ROLE_PAGE
	85:  {"section", model.RoleGroup},                    // ATSPI_ROLE_SECTION
	86:  {"redundant object", model.RoleUnknown},         // ATSPI_ROLE_REDUNDANT_OBJECT
	87:  {"form", model.RoleGroup},                       // ATSPI_ROLE_FORM
	88:  {"link", model.RoleLink},                        // ATSPI_ROLE_LINK
	89:  {"input method window", model.RoleWindow},       // ATSPI_ROLE_INPUT_METHOD_WINDOW
	90:  {"table row", model.RoleRow},                    // ATSPI_ROLE_TABLE_ROW
	91:  {"tree item", model.RoleTreeItem},               // ATSPI_ROLE_TREE_ITEM
	92:  {"document spreadsheet", model.RoleTable},       // ATSPI_ROLE_DOCUMENT_SPREADSHEET
	93:  {"document presentation", model.RoleGroup},      // ATSPI_ROLE_DOCUMENT_PRESENTATION
	94:  {"document text", model.RoleGroup},              // ATSPI_ROLE_DOCUMENT_TEXT
	95:  {"document web", model.RoleWebArea},             // ATSPI_ROLE_DOCUMENT_WEB
	96:  {"document email", model.RoleGroup},             // ATSPI_ROLE_DOCUMENT_EMAIL
	97:  {"comment", model.RoleGroup},                    // ATSPI_ROLE_COMMENT
	98:  {"list box", model.RoleList},                    // ATSPI_ROLE_LIST_BOX
	99:  {"grouping", model.RoleGroup},                   // ATSPI_ROLE_GROUPING
	100: {"image map", model.RoleImage},                  // ATSPI_ROLE_IMAGE_MAP
	101: {"notification", model.RoleAlert},               // ATSPI_ROLE_NOTIFICATION
	102: {"info bar", model.RoleStatusBar},               // ATSPI_ROLE_INFO_BAR
	103: {"level bar", model.RoleProgress},               // ATSPI_ROLE_LEVEL_BAR
	104: {"title bar", model.RoleGroup},                  // ATSPI_ROLE_TITLE_BAR
	105: {"block quote", model.RoleGroup},                // ATSPI_ROLE_BLOCK_QUOTE
	106: {"audio", model.RoleGroup},                      // ATSPI_ROLE_AUDIO
	107: {"video", model.RoleGroup},                      // ATSPI_ROLE_VIDEO
	108: {"definition", model.RoleText},                  // ATSPI_ROLE_DEFINITION
	109: {"article", model.RoleGroup},                    // ATSPI_ROLE_ARTICLE
	110: {"landmark", model.RoleGroup},                   // ATSPI_ROLE_LANDMARK
	111: {"log", model.RoleGroup},                        // ATSPI_ROLE_LOG
	112: {"marquee", model.RoleGroup},                    // ATSPI_ROLE_MARQUEE
	113: {"math", model.RoleGroup},                       // ATSPI_ROLE_MATH
	114: {"rating", model.RoleGroup},                     // ATSPI_ROLE_RATING
	115: {"timer", model.RoleLabel},                      // ATSPI_ROLE_TIMER
	116: {"static", model.RoleText},                      // ATSPI_ROLE_STATIC
	117: {"math fraction", model.RoleGroup},              // ATSPI_ROLE_MATH_FRACTION
	118: {"math root", model.RoleGroup},                  // ATSPI_ROLE_MATH_ROOT
	119: {"subscript", model.RoleText},                   // ATSPI_ROLE_SUBSCRIPT
	120: {"superscript", model.RoleText},                 // ATSPI_ROLE_SUPERSCRIPT
	121: {"description list", model.RoleList},            // ATSPI_ROLE_DESCRIPTION_LIST
	122: {"description term", model.RoleListItem},        // ATSPI_ROLE_DESCRIPTION_TERM
	123: {"description value", model.RoleGroup},          // ATSPI_ROLE_DESCRIPTION_VALUE
	124: {"footnote", model.RoleGroup},                   // ATSPI_ROLE_FOOTNOTE
	125: {"content deletion", model.RoleText},            // ATSPI_ROLE_CONTENT_DELETION
	126: {"content insertion", model.RoleText},           // ATSPI_ROLE_CONTENT_INSERTION
	127: {"mark", model.RoleText},                        // ATSPI_ROLE_MARK
	128: {"suggestion", model.RoleText},                  // ATSPI_ROLE_SUGGESTION
	129: {"push button menu", model.RoleMenuButton},      // ATSPI_ROLE_PUSH_BUTTON_MENU
	130: {"switch", model.RoleSwitch},                    // ATSPI_ROLE_SWITCH
}

// RoleName is the canonical AT-SPI name of a numeric role ("push button", "password text"),
// independent of the toolkit's own GetRoleName; unknown numbers read "role N".
func RoleName(role uint32) string {
	if role < roleCount {
		return roleTable[role].name
	}
	return fmt.Sprintf("role %d", role)
}

// NormaliseRole maps a numeric AT-SPI role onto a normalised role. A text role (text, entry)
// that is multi-line is a text area; an unknown number is RoleUnknown.
func NormaliseRole(role uint32, states model.States) model.Role {
	if role >= roleCount {
		return model.RoleUnknown
	}
	r := roleTable[role].role
	if r == model.RoleTextField && states.Has(model.StateMultiLine) {
		return model.RoleTextArea
	}
	return r
}

// RoleNumber returns the number of the role with the canonical name (or the nick, with hyphens),
// or false.
func RoleNumber(name string) (uint32, bool) {
	name = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "-", " ")
	for i, ri := range roleTable {
		if ri.name == name {
			return uint32(i), true
		}
	}
	return 0, false
}

// IsSecureRole reports whether the numeric role is a password field, whose text and value are
// never read. Only the number counts: GTK4 4.8 names its PasswordEntry "text box".
func IsSecureRole(role uint32) bool { return role == rolePasswordText }

// isWindowRole reports whether a root child of this role is a top-level window (a frame, window,
// dialog, alert or chooser).
func isWindowRole(role uint32) bool {
	switch role {
	case roleFrame, roleWindow, roleDialog, roleAlert, roleFileChooser, roleColorChooser, roleFontChooser:
		return true
	}
	return false
}

// isTopLevel reports whether a child of an app's root with this role is one of the app's
// windows: a window role, or any other but menus and tool tips (a Qt top-level widget that is
// neither a main window nor a dialog is a "filler").
func isTopLevel(role uint32) bool {
	return isWindowRole(role) || (role != roleInvalid && role != roleApplication && role != roleToolTip && !isMenuRole(role))
}

// isDialogRole reports whether a top-level of this role is a dialog rather than a window.
func isDialogRole(role uint32) bool {
	switch role {
	case roleDialog, roleAlert, roleFileChooser, roleColorChooser, roleFontChooser:
		return true
	}
	return false
}

// isMenuRole reports whether a top-level of this role is a menu (a popup menu's window).
func isMenuRole(role uint32) bool { return role == roleMenu || role == rolePopupMenu }

// windowRole is the role a top-level of this numeric role has in model.Window.
func windowRole(role uint32) model.Role {
	if isDialogRole(role) {
		return model.RoleDialog
	}
	return model.RoleWindow
}

// isCheckable reports whether elements of this role carry their checked state as a 0/1/2 value.
func isCheckable(role uint32) bool {
	switch role {
	case roleCheckBox, roleCheckMenuItem, roleRadioButton, roleRadioMenuItem, roleToggleButton, roleSwitch:
		return true
	}
	return false
}

// isLabelledRole reports whether an element of this role commonly takes its name from a label
// (labelled-by), so that reading the relation is worth a call when it has no name of its own.
func isLabelledRole(role uint32) bool {
	switch role {
	case roleText, roleEntry, rolePasswordText, roleSpinButton, roleComboBox, roleAutocomplete, roleEditbar,
		roleCheckBox, roleRadioButton, roleToggleButton, roleSwitch, roleListBox, 51 /* slider */, 15, /* dial */
		31 /* list */, 55 /* table */, 65 /* tree */, 66 /* tree table */, 42 /* progress bar */, 103 /* level bar */ :
		return true
	}
	return false
}
