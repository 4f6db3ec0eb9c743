package ax

import (
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/axbus/axbus/model"
)

// payload lays out words as AXValueGetValue writes them, in the machine's byte order.
func payload(words ...uint64) []byte {
	b := make([]byte, AXValuePayloadSize)
	for i, w := range words {
		binary.NativeEndian.PutUint64(b[8*i:], w)
	}
	return b
}

func floats(fs ...float64) []byte {
	w := make([]uint64, len(fs))
	for i, f := range fs {
		w[i] = math.Float64bits(f)
	}
	return payload(w...)
}

func TestDecodeAXValue(t *testing.T) {
	noValue := int32(AXNoValue)
	errPayload := make([]byte, 4)
	binary.NativeEndian.PutUint32(errPayload, uint32(noValue))
	for _, tc := range []struct {
		name string
		typ  AXValueType
		raw  []byte
		want any
		ok   bool
	}{
		{"point", AXValueCGPoint, floats(10.5, -20), Point{10.5, -20}, true},
		{"size", AXValueCGSize, floats(640, 480), Size{640, 480}, true},
		{"rect", AXValueCGRect, floats(1, 2, 3, 4), model.Rect{X: 1, Y: 2, W: 3, H: 4}, true},
		{"range", AXValueCFRange, payload(7, 3), Range{7, 3}, true},
		{"negative range", AXValueCFRange, payload(uint64(math.MaxUint64), 0), Range{-1, 0}, true},
		{"error", AXValueAXError, errPayload, AXNoValue, true},
		{"short rect", AXValueCGRect, floats(1, 2)[:16], nil, false},
		{"short point", AXValueCGPoint, make([]byte, 8), nil, false},
		{"illegal type", 0, floats(1, 2), nil, false},
		{"unknown type", 9, floats(1, 2), nil, false},
	} {
		got, ok := DecodeAXValue(tc.typ, tc.raw)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: DecodeAXValue = %#v, %v; want %#v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNodeAttributesNeverReadSecureValue(t *testing.T) {
	for _, tc := range []struct{ role, subrole string }{
		{"AXTextField", "AXSecureTextField"}, {"AXSecureTextField", ""},
	} {
		if slices.Contains(NodeAttributes(tc.role, tc.subrole), "AXValue") {
			t.Errorf("%s/%s: AXValue would be read", tc.role, tc.subrole)
		}
	}
	attrs := NodeAttributes("AXTextField", "")
	if !slices.Contains(attrs, "AXValue") || !slices.Contains(attrs, "AXChildren") || !slices.Contains(attrs, "AXParent") {
		t.Errorf("a text field's attributes = %v", attrs)
	}
	if len(NodeAttributes("AXSecureTextField", "")) != len(attrs)-1 {
		t.Errorf("secure attributes drop more than AXValue")
	}
}

func TestNodeOf(t *testing.T) {
	vals := map[string]any{
		"AXRole": "AXCheckBox", "AXTitle": "Remember me", "AXValue": float64(1), "AXEnabled": true,
		"AXFocused": false, "AXPosition": Point{10, 20}, "AXSize": Size{100, 18},
		"AXParent": model.NodeRef("ax:1:2"), "AXChildren": []any{model.NodeRef("ax:1:4"), "junk", model.NodeRef("ax:1:5")},
		"AXIdentifier": "remember",
	}
	n := NodeOf("ax:1:3", vals, []string{"AXPress"}, []string{"AXFocused"})
	if n.Role != model.RoleCheckbox || n.Name != "Remember me" || n.Value != "1" || !n.HasValue {
		t.Fatalf("node = %+v", n)
	}
	if !n.States.Has(model.StateChecked|model.StateEnabled|model.StateFocusable) || n.States.Has(model.StateFocused) {
		t.Errorf("states = %v", n.States.Names())
	}
	if n.Parent != "ax:1:2" || !slices.Equal(n.Children, []model.NodeRef{"ax:1:4", "ax:1:5"}) || n.ChildCount != 2 {
		t.Errorf("parent %q children %v", n.Parent, n.Children)
	}
	if n.Bounds == nil || *n.Bounds != (model.Rect{X: 10, Y: 20, W: 100, H: 18}) {
		t.Errorf("bounds = %v", n.Bounds)
	}
	if n.Identifier != "remember" || !slices.Equal(n.Actions, []string{"AXPress"}) {
		t.Errorf("identifier %q actions %v", n.Identifier, n.Actions)
	}
}

func TestNodeOfDropsSecureValue(t *testing.T) {
	for _, vals := range []map[string]any{
		{"AXRole": "AXTextField", "AXSubrole": "AXSecureTextField", "AXValue": "hunter2"},
		{"AXRole": "AXSecureTextField", "AXValue": "hunter2"},
	} {
		a := AttributesOf(vals)
		if a.Value != "" || a.HasValue {
			t.Errorf("attributes kept the secure value: %+v", a)
		}
		n := NodeOf("ax:1:1", vals, nil, []string{"AXValue"})
		if !n.Secure || n.Value != "" || n.HasValue || n.Text != "" || n.Name == "hunter2" {
			t.Errorf("node leaked the secure value: %+v", n)
		}
	}
}

func TestAttributesOfDefaults(t *testing.T) {
	a := AttributesOf(map[string]any{"AXRole": "AXStaticText", "AXValue": "Saved"})
	if !a.Enabled {
		t.Error("an element without AXEnabled is disabled")
	}
	if a.Expanded != nil || a.Frame != nil {
		t.Errorf("expanded %v frame %v", a.Expanded, a.Frame)
	}
	if a := AttributesOf(map[string]any{"AXEnabled": false}); a.Enabled {
		t.Error("AXEnabled false is enabled")
	}
	if a := AttributesOf(map[string]any{"AXEnabled": float64(0), "AXSelected": float64(1)}); a.Enabled || !a.Selected {
		t.Errorf("numeric booleans: %+v", a)
	}
	if a := AttributesOf(map[string]any{"AXDisclosing": true}); a.Expanded == nil || !*a.Expanded {
		t.Errorf("AXDisclosing: %v", a.Expanded)
	}
	if a := AttributesOf(map[string]any{"AXExpanded": false, "AXDisclosing": true}); a.Expanded == nil || *a.Expanded {
		t.Errorf("AXExpanded wins over AXDisclosing: %v", a.Expanded)
	}
	if a := AttributesOf(map[string]any{"AXPosition": Point{1, 2}}); a.Frame != nil {
		t.Errorf("frame without a size: %v", a.Frame)
	}
}

func TestValueText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
		ok   bool
	}{
		{"text", "text", true}, {"", "", true},
		{float64(1), "1", true}, {0.5, "0.5", true}, {-3.25, "-3.25", true}, {float64(1e6), "1000000", true},
		{true, "1", true}, {false, "0", true},
		{Point{1, 2}, "", false}, {[]any{"a"}, "", false}, {model.NodeRef("ax:1:1"), "", false}, {nil, "", false},
	} {
		got, ok := ValueText(tc.v)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ValueText(%#v) = %q, %v; want %q, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}

func TestWindowOf(t *testing.T) {
	w := WindowOf("7", "ax:1:7", map[string]any{"AXRole": "AXWindow", "AXSubrole": "AXDialog", "AXTitle": "Save",
		"AXPosition": Point{0, 25}, "AXSize": Size{400, 300}, "AXModal": true}, true)
	if w.ID != "7" || w.Ref != "ax:1:7" || w.Title != "Save" || w.Role != model.RoleDialog || !w.Focused || !w.Modal {
		t.Fatalf("window = %+v", w)
	}
	if w.Bounds == nil || w.Bounds.H != 300 {
		t.Errorf("bounds = %v", w.Bounds)
	}
	if s := WindowOf("8", "ax:1:8", map[string]any{"AXRole": "AXSheet"}, false); s.Role != model.RoleSheet || !s.Modal {
		t.Errorf("sheet = %+v", s)
	}
}

func TestSettableCandidates(t *testing.T) {
	if got := SettableCandidates("AXTextField", "AXSecureTextField"); !slices.Contains(got, "AXValue") {
		t.Errorf("password field: %v", got)
	}
	if got := SettableCandidates("AXRow", ""); !slices.Equal(got, []string{"AXSelected"}) {
		t.Errorf("row: %v", got)
	}
	for _, r := range []string{"AXStaticText", "AXGroup", "AXImage", "AXWindow", "AXNoSuchRole"} {
		if got := SettableCandidates(r, ""); got != nil {
			t.Errorf("%s asks about %v", r, got)
		}
	}
}

func TestCoerceValue(t *testing.T) {
	for _, tc := range []struct {
		role, attr string
		v, want    any
	}{
		{"AXSlider", "AXValue", "42.5", 42.5},
		{"AXCheckBox", "AXValue", "1", float64(1)},
		{"AXSlider", "AXValue", "loud", "loud"},
		{"AXSlider", "AXValue", "NaN", "NaN"}, // never a NaN number: the slider refuses the text
		{"AXSlider", "AXValue", "-Inf", "-Inf"},
		{"AXTextField", "AXValue", "42", "42"},
		{"AXSlider", "AXFocused", "1", "1"},
		{"AXSlider", "AXValue", true, true},
	} {
		if got := CoerceValue(tc.role, tc.attr, tc.v); got != tc.want {
			t.Errorf("CoerceValue(%s, %s, %#v) = %#v, want %#v", tc.role, tc.attr, tc.v, got, tc.want)
		}
	}
}
