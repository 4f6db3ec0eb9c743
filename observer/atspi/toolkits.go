package atspi

import (
	"strconv"
	"strings"
	"time"
)

// toolkitTraits are what the backend must do differently for a toolkit.
type toolkitTraits struct {
	// gtk4: GTK 4 names unnamed widgets after their class ("GtkEntry"); such names are dropped.
	gtk4 bool
	// windowCoords: Component.GetExtents(SCREEN) is not supported (GTK 4 answers in window
	// coordinates whatever is asked); the window's position on screen is added.
	windowCoords bool
	// recheck: the toolkit emits no event for some changes (GTK 4.8: no children-changed for an
	// appended child, no value-changed, no window:create), so a watch re-reads it periodically.
	recheck bool
	// propsByEvents: the toolkit announces each change of an element's name, description, parent
	// and children (GTK3's atk-bridge), so a watched element's Accessible properties are taken
	// from what the last read and the events since left, not asked again (GetAll is a third of
	// what a warm read costs the app).
	propsByEvents bool
	// propsOneByOne: Properties.GetAll kills the app (Qt 5 and 6 read a Get's second argument from
	// every Properties call, and GetAll has one), so each Accessible property is asked on its own.
	propsOneByOne bool
	// pressDelay: the toolkit presses a button as a keyboard would, showing it pressed and
	// clicking it this long after answering the action (GTK 4's ACTIVATE_TIMEOUT, 250 ms; Qt's
	// animateClick, 100 ms). See activationDelay.
	pressDelay time.Duration
}

// toolkitTraitsOf returns the traits of a toolkit by its Application.ToolkitName and Version.
// GTK3's atk-bridge says "gtk" 3.x, GTK4 "GTK" 4.x.
func toolkitTraitsOf(name, version string) toolkitTraits {
	if strings.EqualFold(name, "gtk") && majorVersion(version) >= 4 {
		return toolkitTraits{gtk4: true, windowCoords: true, recheck: true, pressDelay: 250 * time.Millisecond}
	}
	if strings.EqualFold(name, "qt") {
		return toolkitTraits{propsOneByOne: true, pressDelay: 100 * time.Millisecond}
	}
	if strings.EqualFold(name, "gtk") && majorVersion(version) == 3 {
		return toolkitTraits{propsByEvents: true}
	}
	return toolkitTraits{}
}

// activationDelay is how long after answering an action on an element of this role the toolkit
// applies it: the press delay for a button's press (GTK 4 names it "click", Qt "Press"; Qt
// toggles a checkable button at once, through "Toggle"), zero for everything else.
func activationDelay(t toolkitTraits, role uint32, action string) time.Duration {
	if (role == rolePushButton || role == roleToggleButton) && (strings.EqualFold(action, "click") || strings.EqualFold(action, "press")) {
		return t.pressDelay
	}
	return 0
}

// majorVersion is the number before the first dot of a version, or 0.
func majorVersion(v string) int {
	major, _, _ := strings.Cut(strings.TrimSpace(v), ".")
	n, err := strconv.Atoi(major)
	if err != nil {
		return 0
	}
	return n
}
