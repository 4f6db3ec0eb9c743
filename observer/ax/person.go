package ax

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/axbus/axbus/observer"
)

// A person's input as a CGEventTap hears it, made an observer.PersonInput; platform-free, so
// that it is tested anywhere.

// The CGEventTypes the tap listens to.
const (
	cgEventLeftMouseDown  = 1
	cgEventRightMouseDown = 3
	cgEventKeyDown        = 10
	cgEventOtherMouseDown = 25
)

// tapEvent is what the tap's callback reads of one event.
type tapEvent struct {
	typ   uint32
	x, y  float64
	code  uint16 // a key's virtual key code
	text  string // what it types (CGEventKeyboardGetUnicodeString)
	flags uint64
}

// keyNames names the keys that type no character, by their code, as X names them (the Linux
// backend's names, so a recorded key step reads the same from either; both parse them).
var keyNames = func() map[uint16]string {
	names := map[uint16]string{}
	for key, name := range map[string]string{"return": "Return", "tab": "Tab", "space": "space", "backspace": "BackSpace",
		"delete": "Delete", "escape": "Escape", "left": "Left", "right": "Right", "down": "Down", "up": "Up",
		"home": "Home", "end": "End", "pageup": "Prior", "pagedown": "Next", "help": "Help", "capslock": "Caps_Lock"} {
		names[namedKeys[key].code] = name
	}
	for i, code := range functionKeys {
		names[code] = "F" + strconv.Itoa(i+1)
	}
	return names
}()

// personInput is the observer's form of e at t: a button at its point, or a key with its name,
// what it types (nothing while ctrl, option or command is held: a shortcut) and the modifiers.
func personInput(e tapEvent, t time.Time) observer.PersonInput {
	in := observer.PersonInput{Time: t}
	switch e.typ {
	case cgEventLeftMouseDown:
		in.Button, in.X, in.Y = 1, e.x, e.y
		return in
	case cgEventRightMouseDown:
		in.Button, in.X, in.Y = 3, e.x, e.y
		return in
	case cgEventOtherMouseDown:
		in.Button, in.X, in.Y = 2, e.x, e.y
		return in
	}
	in.Key = true
	for _, m := range []struct {
		flag uint64
		name string
	}{{flagShift, "shift"}, {flagControl, "ctrl"}, {flagOption, "alt"}, {flagCommand, "super"}} {
		if e.flags&m.flag != 0 {
			in.Mods = append(in.Mods, m.name)
		}
	}
	shortcut := e.flags&(flagControl|flagOption|flagCommand) != 0
	if name, ok := keyNames[e.code]; ok {
		in.Name = name
		if name == "space" && !shortcut {
			in.Text = " "
		}
		return in
	}
	if r := strokeChar(keyStroke{code: e.code}); r != 0 {
		in.Name = string(r) // the key as the US layout prints it: a shortcut's key
	}
	if text := strings.TrimFunc(e.text, unicode.IsControl); text != "" && !shortcut {
		in.Text = text
		if in.Name == "" {
			in.Name = text
		}
	}
	return in
}
