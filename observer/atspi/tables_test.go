package atspi

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

// The role table covers the whole AtspiRole enum with distinct names, and the roles that matter
// to agents and to the backend's own decisions map where they must.
func TestRoleTable(t *testing.T) {
	if len(roleTable) != 131 {
		t.Fatalf("role table has %d entries, want 131 (ATSPI_ROLE_INVALID .. ATSPI_ROLE_SWITCH)", len(roleTable))
	}
	names := map[string]int{}
	for i, ri := range roleTable {
		if ri.name == "" || ri.role == "" {
			t.Errorf("role %d has no name or no normalised role: %+v", i, ri)
		}
		if j, dup := names[ri.name]; dup {
			t.Errorf("roles %d and %d share the name %q", j, i, ri.name)
		}
		names[ri.name] = i
	}
	// Anchors spread across the enum: a line inserted or dropped shifts everything after it.
	anchors := map[uint32]string{0: "invalid", 7: "check box", 23: "frame", 29: "label", 40: "password text",
		43: "push button", 61: "text", 69: "window", 75: "application", 79: "entry", 98: "list box",
		116: "static", 129: "push button menu", 130: "switch"}
	for n, want := range anchors {
		if got := RoleName(n); got != want {
			t.Errorf("RoleName(%d) = %q, want %q", n, got, want)
		}
	}
	cases := []struct {
		role   uint32
		states model.States
		want   model.Role
	}{
		{43, 0, model.RoleButton},
		{7, 0, model.RoleCheckbox},
		{40, 0, model.RolePassword},
		{61, 0, model.RoleTextField},
		{61, model.StateMultiLine, model.RoleTextArea},
		{79, 0, model.RoleTextField},
		{23, 0, model.RoleWindow},
		{16, 0, model.RoleDialog},
		{49, 0, model.RoleScrollArea},
		{95, 0, model.RoleWebArea},
		{51, 0, model.RoleSlider},
		{32, 0, model.RoleListItem},
		{130, 0, model.RoleSwitch},
		{131, 0, model.RoleUnknown},
		{9999, 0, model.RoleUnknown},
	}
	for _, c := range cases {
		if got := NormaliseRole(c.role, c.states); got != c.want {
			t.Errorf("NormaliseRole(%d %s, %v) = %s, want %s", c.role, RoleName(c.role), c.states, got, c.want)
		}
	}
	if got := RoleName(9999); got != "role 9999" {
		t.Errorf("RoleName(9999) = %q", got)
	}
	for _, name := range []string{"push button", "push-button", " Password Text "} {
		if _, ok := RoleNumber(name); !ok {
			t.Errorf("RoleNumber(%q) not found", name)
		}
	}
	if n, _ := RoleNumber("password-text"); n != 40 {
		t.Errorf("RoleNumber(password-text) = %d", n)
	}
}

// Only the numeric role makes a field secure: GTK4 names its password entry "text box".
func TestSecureByNumberOnly(t *testing.T) {
	if !IsSecureRole(40) {
		t.Fatal("role 40 (password text) is not secure")
	}
	for n := uint32(0); n < 131; n++ {
		if n != 40 && IsSecureRole(n) {
			t.Errorf("role %d (%s) is secure", n, RoleName(n))
		}
	}
	if n, ok := RoleNumber("text box"); ok {
		t.Errorf("GTK4's role name %q resolves to role %d; it must not be trusted", "text box", n)
	}
}

func TestWindowRoles(t *testing.T) {
	for _, n := range []uint32{roleFrame, roleWindow, roleDialog, roleAlert, roleFileChooser} {
		if !isWindowRole(n) {
			t.Errorf("%s is not a window role", RoleName(n))
		}
	}
	if isWindowRole(roleLabel) || isWindowRole(roleApplication) {
		t.Error("label/application taken for windows")
	}
	filler, _ := RoleNumber("filler") // a Qt top-level widget that is neither a main window nor a dialog
	if !isTopLevel(filler) || !isTopLevel(roleFrame) || isTopLevel(roleToolTip) || isTopLevel(roleMenu) || isTopLevel(roleApplication) {
		t.Error("isTopLevel: a filler or frame under the root is a window; a tool tip, menu or application is not")
	}
	if windowRole(roleDialog) != model.RoleDialog || windowRole(roleFileChooser) != model.RoleDialog ||
		windowRole(roleFrame) != model.RoleWindow {
		t.Error("windowRole")
	}
}

func TestStateTable(t *testing.T) {
	if len(stateTable) != 44 {
		t.Fatalf("state table has %d entries, want 44 (ATSPI_STATE_INVALID .. READ_ONLY)", len(stateTable))
	}
	for i, si := range stateTable {
		if si.name == "" {
			t.Errorf("state %d has no name", i)
		}
		if n, ok := StateNumber(si.name); !ok || n != i {
			t.Errorf("StateNumber(%q) = %d, %v; want %d", si.name, n, ok, i)
		}
	}
	anchors := map[int]string{1: "active", 4: "checked", 6: "defunct", 12: "focused", 24: "sensitive", 25: "showing",
		30: "visible", 32: "indeterminate", 40: "visited", 43: "read-only"}
	for i, want := range anchors {
		if StateName(i) != want {
			t.Errorf("StateName(%d) = %q, want %q", i, StateName(i), want)
		}
	}
	// GTK3 entry (enabled, sensitive, showing, visible, focusable, editable, single-line).
	gtk3 := States([]uint32{0x47000980, 0})
	for _, want := range []model.States{model.StateEnabled, model.StateShowing, model.StateVisible,
		model.StateFocusable, model.StateEditable} {
		if !gtk3.Has(want) {
			t.Errorf("GTK3 entry states %v lack %v", gtk3, want)
		}
	}
	// GTK4 sets SENSITIVE without ENABLED: it is still enabled.
	if gtk4 := States([]uint32{0x41000000}); !gtk4.Has(model.StateEnabled) || gtk4.Has(model.StateShowing) {
		t.Errorf("GTK4 states %v", gtk4)
	}
	// The high word: indeterminate (32) is mixed, read-only (43) read_only.
	if s := States([]uint32{0, 1 | 1<<11}); !s.Has(model.StateMixed) || !s.Has(model.StateReadOnly) {
		t.Errorf("high word: %v", s)
	}
	if s := States(nil); s != 0 {
		t.Errorf("no words: %v", s)
	}
}

func TestRefs(t *testing.T) {
	ref := MakeRef(":1.42", "/org/a11y/atspi/accessible/7")
	if ref != ":1.42|/org/a11y/atspi/accessible/7" {
		t.Fatalf("MakeRef = %q", ref)
	}
	bus, path, ok := ParseRef(ref)
	if !ok || bus != ":1.42" || path != "/org/a11y/atspi/accessible/7" {
		t.Fatalf("ParseRef = %q %q %v", bus, path, ok)
	}
	for _, bad := range []model.NodeRef{"", "x", "|/a", ":1.2|", ":1.2|rel", "e3"} {
		if _, _, ok := ParseRef(bad); ok {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
	if RootRef(":1.3") != ":1.3|/org/a11y/atspi/accessible/root" {
		t.Error(RootRef(":1.3"))
	}
	if windowID("/org/a11y/atspi/accessible/12") != "12" {
		t.Error(windowID("/org/a11y/atspi/accessible/12"))
	}
	if id := windowID("/org/gtk/a11y/a0639ea5_bd55_40e7_9797_c274bf7bf59e"); id != "a0639ea5" {
		t.Errorf("GTK4 window id %q", id)
	}
	for _, null := range [][2]string{{"", "/a"}, {":1.2", ""}, {":1.2", nullPath}} {
		if !isNullRef(null[0], null[1]) {
			t.Errorf("isNullRef%q is false", null)
		}
	}
	if isNullRef(":1.2", "/org/a11y/atspi/accessible/7") {
		t.Error("an object taken for the null one")
	}
}

// TestRoleTraits: which roles carry a checked value, and which take their name from a label.
func TestRoleTraits(t *testing.T) {
	if !isCheckable(roleCheckBox) || !isCheckable(roleSwitch) || isCheckable(roleSpinButton) || isCheckable(roleLabel) {
		t.Error("isCheckable")
	}
	if !isLabelledRole(roleEntry) || !isLabelledRole(roleCheckBox) || isLabelledRole(roleLabel) || isLabelledRole(roleApplication) {
		t.Error("isLabelledRole")
	}
}

func TestDBusErrorCodes(t *testing.T) {
	cases := []struct {
		name, msg string
		want      model.Code
	}{
		{dbusServiceUnknown, "The name :1.99 was not provided by any .service files", model.CodeAppGone},
		{dbusNameHasNoOwner, "", model.CodeAppGone},
		{dbusUnknownObject, "could not be processed as object /org/a11y/atspi/accessible/99999 does not exist", model.CodeElementNotFound},
		{dbusUnknownMethod, "Object does not exist at path “/org/gtk/a11y/nope”", model.CodeElementNotFound},
		{dbusUnknownMethod, "No such interface “org.a11y.atspi.Value” on object at path /org/a11y/atspi/accessible/root", model.CodeNotSupported},
		{dbusUnknownMethod, `Method "GetFoo" with signature "" on interface "org.a11y.atspi.Value" doesn't exist`, model.CodeNotSupported},
		{dbusNoReply, "Did not receive a reply", model.CodeAppNotResponding},
		{dbusLimitsExceeded, "", model.CodeTransient},
		{"org.example.Weird", "", model.CodeInternal},
	}
	for _, c := range cases {
		if got := codeOfDBusError(c.name, c.msg); got != c.want {
			t.Errorf("codeOfDBusError(%s, %q) = %s, want %s", c.name, c.msg, got, c.want)
		}
		if model.Errorf(c.want, suggestionFor(c.want), "x").Suggestion == "" {
			t.Errorf("no suggestion for %s", c.want)
		}
	}
	e := model.Errorf(codeOfDBusError(dbusServiceUnknown, ""), "s", "m")
	if !errors.Is(e, &model.Error{Code: model.CodeAppGone}) {
		t.Error("errors.Is by code")
	}
}

func TestToolkitTraits(t *testing.T) {
	if tr := toolkitTraitsOf("GTK", "4.8.3"); !tr.gtk4 || !tr.windowCoords || !tr.recheck || tr.pressDelay != 250*time.Millisecond {
		t.Errorf("GTK 4.8.3: %+v", tr)
	}
	if tr := toolkitTraitsOf("gtk", "3.24.38"); tr != (toolkitTraits{propsByEvents: true}) {
		t.Errorf("GTK 3: %+v", tr)
	}
	for _, v := range []string{"5.15.8", "6.4.2"} {
		if tr := toolkitTraitsOf("Qt", v); tr != (toolkitTraits{propsOneByOne: true, pressDelay: 100 * time.Millisecond}) {
			t.Errorf("Qt %s: %+v", v, tr)
		}
	}
	if tr := toolkitTraitsOf("Gecko", "153.8.0"); tr != (toolkitTraits{}) {
		t.Errorf("Gecko: %+v", tr)
	}
	gtk4, qt, gtk3 := toolkitTraitsOf("GTK", "4.8.3"), toolkitTraitsOf("Qt", "5.15.8"), toolkitTraitsOf("gtk", "3.24.38")
	for _, c := range []struct {
		t      toolkitTraits
		role   uint32
		action string
		want   time.Duration
	}{
		{gtk4, rolePushButton, "click", 250 * time.Millisecond},
		{gtk4, roleToggleButton, "click", 250 * time.Millisecond},
		{gtk4, roleCheckBox, "click", 0},
		{qt, rolePushButton, "Press", 100 * time.Millisecond},
		{qt, roleToggleButton, "Toggle", 0},
		{gtk3, rolePushButton, "click", 0},
	} {
		if got := activationDelay(c.t, c.role, c.action); got != c.want {
			t.Errorf("activationDelay(%+v, %s, %s) = %v, want %v", c.t, RoleName(c.role), c.action, got, c.want)
		}
	}
	if majorVersion("") != 0 || majorVersion("x.1") != 0 || majorVersion(" 12.0") != 12 {
		t.Error("majorVersion")
	}
}

func TestIfaces(t *testing.T) {
	s := parseIfaces([]string{"org.a11y.atspi.Accessible", "org.a11y.atspi.Text", "org.a11y.atspi.Nope"})
	if !s.has(ifAccessible) || !s.has(ifText) || s.has(ifValue) {
		t.Errorf("parseIfaces: %b", s)
	}
	if len(ifaceBits) != 15 {
		t.Errorf("%d interfaces", len(ifaceBits))
	}
}

func TestHyphenate(t *testing.T) {
	for in, want := range map[string]string{"StateChanged": "state-changed", "ActiveDescendantChanged": "active-descendant-changed",
		"Focus": "focus", "activate": "activate", "": ""} {
		if got := hyphenate(in); got != want {
			t.Errorf("hyphenate(%q) = %q, want %q", in, got, want)
		}
	}
	if eventClass("org.a11y.atspi.Event.Object") != "object" || eventClass("org.a11y.atspi.Event.Window") != "window" ||
		eventClass("org.freedesktop.DBus") != "" {
		t.Error("eventClass")
	}
	if !strings.HasPrefix(focusEvent, "object:state-changed") {
		t.Error(focusEvent)
	}
}

// A pressed button is a toggle button that is on: checked as well (GTK 4.8 signals only pressed).
func TestPressedButtonIsChecked(t *testing.T) {
	pressed := stateSet(1 << 20)
	for _, c := range []struct {
		role uint32
		set  stateSet
		want bool
	}{
		{rolePushButton, pressed, true},
		{roleToggleButton, pressed, true},
		{rolePushButton, 0, false},
		{roleCheckBox, pressed, false}, // a check box says checked itself
		{roleLabel, pressed, false},
	} {
		got := nodeStates(c.role, c.set)
		if got.Has(model.StateChecked) != c.want || got.Has(model.StatePressed) != (c.set != 0) {
			t.Errorf("%s %v: %v", RoleName(c.role), c.set, got)
		}
	}
}
