package model

// Roles lists the normalised roles.
var Roles = []Role{RoleApplication, RoleWindow, RoleDialog, RoleSheet, RoleButton, RoleToggleButton, RoleCheckbox, RoleRadio, RoleSwitch, RoleTextField, RoleTextArea, RolePassword, RoleSearchField, RoleText, RoleLabel, RoleHeading, RoleParagraph, RoleLink, RoleImage, RoleList, RoleListItem, RoleTable, RoleRow, RoleCell, RoleColumn, RoleColumnHeader, RoleOutline, RoleTree, RoleTreeItem, RoleScrollArea, RoleScrollBar, RoleWebArea, RoleGroup, RolePanel, RoleSplitGroup, RoleToolbar, RoleMenuBar, RoleMenu, RoleMenuItem, RoleMenuButton, RoleComboBox, RolePopUpButton, RoleTabList, RoleTab, RoleSlider, RoleSpinButton, RoleProgress, RoleSeparator, RoleStatusBar, RoleToolTip, RoleAlert, RoleFiller, RoleUnknown}
