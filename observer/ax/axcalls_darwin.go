package ax

import "github.com/axbus/axbus/model"

// The AX calls that read, each one round trip to the app, with their answers copied out of
// CoreFoundation into Go values (values.go turns those into nodes).

// goValue copies a CF value out: a string, float64, bool, []any, an AXValue's payload (Point,
// Size, model.Rect, Range, AXError) or, for an element, its handle (interned). Other types
// are nil.
func (t *refTable) goValue(v uintptr) any {
	if v == 0 {
		return nil
	}
	switch cfGetTypeID(v) {
	case typeString:
		return goString(v)
	case typeNumber:
		return numberValue(v)
	case typeBoolean:
		return cfBooleanGetValue(v) != 0
	case typeArray:
		items := arrayItems(v)
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = t.goValue(it)
		}
		return out
	case typeAXValue:
		typ := axValueGetType(v)
		var buf [AXValuePayloadSize]byte
		if axValueGetValue(v, typ, &buf[0]) == 0 {
			return nil
		}
		if d, ok := DecodeAXValue(typ, buf[:]); ok {
			return d
		}
	case typeAXElement:
		if r := t.intern(v); r != "" {
			return r
		}
	}
	return nil
}

// copyValues reads attrs (a list of the code) in one AXUIElementCopyMultipleAttributeValues
// round trip. An attribute the element lacks or has no value for is absent from the map; when
// every attribute failed because the element or its app is gone, that error is returned.
func (t *refTable) copyValues(ax uintptr, attrs []string) (map[string]any, AXError) {
	var out uintptr
	if code := axUIElementCopyMultipleAttributeValues(ax, nameList(attrs), copyMultipleLenient, &out); code != AXSuccess {
		return nil, code
	}
	defer release(out)
	vals := make(map[string]any, len(attrs))
	failed := AXSuccess
	for i, it := range arrayItems(out) {
		if i >= len(attrs) {
			break
		}
		switch v := t.goValue(it).(type) {
		case nil:
		case AXError:
			if v == AXInvalidUIElement || v == AXCannotComplete || v == AXAPIDisabled {
				failed = v
			}
		default:
			vals[attrs[i]] = v
		}
	}
	if len(vals) == 0 && failed != AXSuccess {
		return nil, failed
	}
	return vals, AXSuccess
}

// copyValue reads one attribute of the code; AXNoValue when the element has none.
func (t *refTable) copyValue(ax uintptr, attr string) (any, AXError) {
	var out uintptr
	if code := axUIElementCopyAttributeValue(ax, name(attr), &out); code != AXSuccess {
		return nil, code
	}
	defer release(out)
	v := t.goValue(out)
	if v == nil {
		return nil, AXNoValue
	}
	return v, AXSuccess
}

// copyElement reads an attribute whose value is an element, as its handle; AXNoValue when the
// element has none.
func (t *refTable) copyElement(ax uintptr, attr string) (model.NodeRef, AXError) {
	v, code := t.copyValue(ax, attr)
	if code != AXSuccess {
		return "", code
	}
	r, ok := v.(model.NodeRef)
	if !ok {
		return "", AXNoValue
	}
	return r, AXSuccess
}

// actionNames lists the element's actions.
func actionNames(ax uintptr) ([]string, AXError) {
	var out uintptr
	if code := axUIElementCopyActionNames(ax, &out); code != AXSuccess {
		return nil, code
	}
	defer release(out)
	return stringArray(out), AXSuccess
}

// settableAttrs lists which of attrs the element allows to set; an attribute it cannot answer
// for counts as not settable.
func settableAttrs(ax uintptr, attrs []string) []string {
	var out []string
	for _, a := range attrs {
		var on uint8
		if axUIElementIsAttributeSettable(ax, name(a), &on) == AXSuccess && on != 0 {
			out = append(out, a)
		}
	}
	return out
}
