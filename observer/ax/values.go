package ax

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/axbus/axbus/model"
)

// The platform-free half of value conversion. The darwin files copy attribute values out of
// CoreFoundation into plain Go values (string, float64, bool, []any, Point, Size, model.Rect,
// Range, AXError, and model.NodeRef for elements); the functions here turn those into nodes
// and windows, so that the rules are tested on every OS.

// AXValueType is the type of an AXValue's payload (HIServices/AXValue.h).
type AXValueType int32

// The AXValue types.
const (
	AXValueCGPoint AXValueType = 1
	AXValueCGSize  AXValueType = 2
	AXValueCGRect  AXValueType = 3
	AXValueCFRange AXValueType = 4
	AXValueAXError AXValueType = 5
)

// AXValuePayloadSize is the size of the largest payload, a CGRect: a buffer this big holds any.
const AXValuePayloadSize = 32

// Point is a CGPoint.
type Point struct{ X, Y float64 }

// Size is a CGSize.
type Size struct{ W, H float64 }

// Range is a CFRange.
type Range struct{ Location, Length int64 }

// DecodeAXValue decodes the payload AXValueGetValue wrote for typ, in the machine's byte order:
// a Point, Size, model.Rect, Range or AXError. It is false for another type or a short payload.
func DecodeAXValue(typ AXValueType, raw []byte) (any, bool) {
	f := func(i int) float64 { return math.Float64frombits(binary.NativeEndian.Uint64(raw[8*i:])) }
	n := func(i int) int64 { return int64(binary.NativeEndian.Uint64(raw[8*i:])) }
	switch {
	case typ == AXValueCGPoint && len(raw) >= 16:
		return Point{f(0), f(1)}, true
	case typ == AXValueCGSize && len(raw) >= 16:
		return Size{f(0), f(1)}, true
	case typ == AXValueCGRect && len(raw) >= 32:
		return model.Rect{X: f(0), Y: f(1), W: f(2), H: f(3)}, true
	case typ == AXValueCFRange && len(raw) >= 16:
		return Range{n(0), n(1)}, true
	case typ == AXValueAXError && len(raw) >= 4:
		return AXError(int32(binary.NativeEndian.Uint32(raw))), true
	}
	return nil, false
}

// RoleAttributes are read first from an element whose role is not known yet: the role decides
// whether its AXValue may be read at all.
var RoleAttributes = []string{"AXRole", "AXSubrole"}

// BoundsAttributes are what ReadBounds reads.
var BoundsAttributes = []string{"AXPosition", "AXSize"}

// WindowAttributes are read from each of an app's windows; the children are scanned for sheets.
var WindowAttributes = []string{"AXRole", "AXSubrole", "AXTitle", "AXPosition", "AXSize", "AXModal", "AXChildren"}

// nodeAttributes are read from every element in one AXUIElementCopyMultipleAttributeValues round
// trip: what Attributes and model.Node need.
var nodeAttributes = []string{
	"AXRole", "AXSubrole", "AXTitle", "AXDescription", "AXHelp", "AXIdentifier", "AXValue",
	"AXPosition", "AXSize", "AXEnabled", "AXFocused", "AXSelected", "AXExpanded", "AXDisclosing",
	"AXModal", "AXChildren", "AXParent",
}

// secureNodeAttributes are nodeAttributes without AXValue: a secure field's value is never read.
var secureNodeAttributes = withoutAttr(nodeAttributes, "AXValue")

// NodeAttributes lists the attributes to read from an element of this role and subrole.
func NodeAttributes(role, subrole string) []string {
	if IsSecure(role, subrole) {
		return secureNodeAttributes
	}
	return nodeAttributes
}

func withoutAttr(attrs []string, drop string) []string {
	out := make([]string, 0, len(attrs))
	for _, a := range attrs {
		if a != drop {
			out = append(out, a)
		}
	}
	return out
}

// settableRoles lists, by normalised role, which attributes a first read asks
// AXUIElementIsAttributeSettable about: one round trip each, so only where the answer makes a
// state (focusable, selectable, editable).
var settableRoles = map[model.Role][]string{
	model.RoleTextField:    {"AXValue", "AXFocused"},
	model.RoleTextArea:     {"AXValue", "AXFocused"},
	model.RolePassword:     {"AXValue", "AXFocused"},
	model.RoleSearchField:  {"AXValue", "AXFocused"},
	model.RoleComboBox:     {"AXValue", "AXFocused"},
	model.RoleRow:          {"AXSelected"},
	model.RoleTreeItem:     {"AXSelected"},
	model.RoleCell:         {"AXSelected"},
	model.RoleButton:       {"AXFocused"},
	model.RoleCheckbox:     {"AXFocused"},
	model.RoleRadio:        {"AXFocused"},
	model.RoleSwitch:       {"AXFocused"},
	model.RoleToggleButton: {"AXFocused"},
	model.RoleTab:          {"AXFocused"},
	model.RoleLink:         {"AXFocused"},
	model.RolePopUpButton:  {"AXFocused"},
	model.RoleMenuButton:   {"AXFocused"},
	model.RoleSlider:       {"AXFocused"},
	model.RoleSpinButton:   {"AXFocused"},
	model.RoleList:         {"AXFocused"},
	model.RoleTable:        {"AXFocused"},
	model.RoleOutline:      {"AXFocused"},
}

// SettableCandidates lists the attributes whose settability decides a state of an element of
// this role; nil for roles where it decides none.
func SettableCandidates(role, subrole string) []string {
	return settableRoles[NormaliseRole(role, subrole)]
}

// AttributesOf maps one element's converted attribute values onto Attributes. An element that
// does not report AXEnabled is taken as enabled (static texts and groups have none). A secure
// element's AXValue is dropped even when present.
func AttributesOf(vals map[string]any) Attributes {
	str := func(k string) string { s, _ := vals[k].(string); return s }
	a := Attributes{
		Role: str("AXRole"), Subrole: str("AXSubrole"), Title: str("AXTitle"), Description: str("AXDescription"),
		Help: str("AXHelp"), Identifier: str("AXIdentifier"), Frame: FrameOf(vals),
		Focused: flag(vals, "AXFocused"), Selected: flag(vals, "AXSelected"), Modal: flag(vals, "AXModal"),
		Children: refsOf(vals["AXChildren"]),
	}
	a.Enabled = true
	if on, ok := boolOf(vals["AXEnabled"]); ok {
		a.Enabled = on
	}
	for _, k := range []string{"AXExpanded", "AXDisclosing"} {
		if on, ok := boolOf(vals[k]); ok {
			a.Expanded = &on
			break
		}
	}
	if !IsSecure(a.Role, a.Subrole) {
		a.Value, a.HasValue = ValueText(vals["AXValue"])
	}
	return a
}

// NodeOf maps one element's converted attribute values, its actions and its settable
// attributes onto a Node, with its AXParent as Parent.
func NodeOf(ref model.NodeRef, vals map[string]any, actions, settable []string) model.Node {
	a := AttributesOf(vals)
	a.Actions, a.Settable = actions, settable
	n := a.Node(ref)
	n.Parent, _ = vals["AXParent"].(model.NodeRef)
	return n
}

// WindowOf maps a window's converted WindowAttributes onto an model.Window.
func WindowOf(id string, ref model.NodeRef, vals map[string]any, focused bool) model.Window {
	a := AttributesOf(vals)
	role := NormaliseRole(a.Role, a.Subrole)
	return model.Window{ID: id, Title: a.Title, Role: role, Bounds: a.Frame, Focused: focused,
		Modal: a.Modal || role == model.RoleSheet, Ref: ref}
}

// FrameOf is the element's frame from AXPosition and AXSize; nil unless it has both.
func FrameOf(vals map[string]any) *model.Rect {
	p, okP := vals["AXPosition"].(Point)
	s, okS := vals["AXSize"].(Size)
	if !okP || !okS {
		return nil
	}
	return &model.Rect{X: p.X, Y: p.Y, W: s.W, H: s.H}
}

// ValueText is an AXValue as Node.Value text: a string as it is, a number formatted by
// FormatNumber, a boolean 1 or 0 (as a checkbox's value reads). Other values (points, arrays,
// elements) are no value.
func ValueText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case float64:
		return FormatNumber(v), true
	case bool:
		if v {
			return "1", true
		}
		return "0", true
	}
	return "", false
}

// FormatNumber formats a number as briefly as it reads back exactly: 1, 0.5, -3.25.
func FormatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// numericRoles are the AX roles whose AXValue is a number.
var numericRoles = map[string]bool{
	"AXSlider": true, "AXIncrementor": true, "AXLevelIndicator": true, "AXScrollBar": true,
	"AXProgressIndicator": true, "AXValueIndicator": true, "AXCheckBox": true, "AXRadioButton": true,
}

// CoerceValue converts a value to set into what the element takes: text that reads as a number
// becomes a number for the AXValue of a slider, stepper or checkbox. Other values pass unchanged.
func CoerceValue(role, attr string, v any) any {
	s, ok := v.(string)
	if !ok || attr != "AXValue" || !numericRoles[role] {
		return v
	}
	if f, err := model.ParseNumber(s); err == nil {
		return f
	}
	return v // not a finite number: the element refuses it as the text it is
}

// boolOf reads a boolean attribute: a CFBoolean, or a number (some apps answer 0 or 1).
func boolOf(v any) (on, ok bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case float64:
		return v != 0, true
	}
	return false, false
}

func flag(vals map[string]any, k string) bool {
	on, _ := boolOf(vals[k])
	return on
}

// refsOf is the element handles of an array, skipping anything that is not one.
func refsOf(v any) []model.NodeRef {
	items, _ := v.([]any)
	var out []model.NodeRef
	for _, it := range items {
		if r, ok := it.(model.NodeRef); ok {
			out = append(out, r)
		}
	}
	return out
}
