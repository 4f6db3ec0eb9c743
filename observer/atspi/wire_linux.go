//go:build linux

package atspi

import (
	"math"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// AT-SPI values as D-Bus carries them, and their decoding.

// relationLabelledBy is ATSPI_RELATION_LABELLED_BY.
const relationLabelledBy = 2

// objRef is an AT-SPI object reference on the wire: (so).
type objRef struct {
	Bus  string
	Path dbus.ObjectPath
}

// variantRef reads an object reference out of a variant ("Parent" property, event data).
func variantRef(v dbus.Variant) model.NodeRef {
	switch x := v.Value().(type) {
	case []any:
		if len(x) == 2 {
			bus, _ := x[0].(string)
			path, _ := x[1].(dbus.ObjectPath)
			if !isNullRef(bus, string(path)) {
				return MakeRef(bus, string(path))
			}
		}
	case objRef:
		if !isNullRef(x.Bus, string(x.Path)) {
			return MakeRef(x.Bus, string(x.Path))
		}
	}
	return ""
}

func variantFloat(v dbus.Variant) (float64, bool) {
	switch x := v.Value().(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint32:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func propString(props map[string]dbus.Variant, key string) string {
	if v, ok := props[key]; ok {
		s, _ := v.Value().(string)
		return s
	}
	return ""
}

func propInt(props map[string]dbus.Variant, key string) int {
	if v, ok := props[key]; ok {
		switch x := v.Value().(type) {
		case int32:
			return int(x)
		case uint32:
			return int(x)
		case int64:
			return int(x)
		}
	}
	return 0
}

// labelTarget returns the first labelled-by target of a GetRelationSet answer: a(ua(so)).
func labelTarget(body []any) (bus, path string, ok bool) {
	var rels []struct {
		Type    uint32
		Targets []objRef
	}
	if dbus.Store(body, &rels) != nil {
		return "", "", false
	}
	for _, r := range rels {
		if r.Type == relationLabelledBy {
			for _, t := range r.Targets {
				if !isNullRef(t.Bus, string(t.Path)) {
					return t.Bus, string(t.Path), true
				}
			}
		}
	}
	return "", "", false
}

// answer stores a call's one answer in dst: straight when it decoded as a T already (both
// decoders make the types a signature names), else through dbus.Store's conversions. Store
// copies a map or a slice of structs by reflection, a fifth of a walk's CPU.
func answer[T any](c *dbus.Call, dst *T) error {
	if c.Err != nil {
		return c.Err
	}
	if len(c.Body) == 1 {
		if v, ok := c.Body[0].(T); ok {
			*dst = v
			return nil
		}
	}
	return c.Store(dst)
}

// answerRefs is a call's one answer as object references: a(so).
func answerRefs(c *dbus.Call) ([]objRef, error) {
	if c.Err != nil {
		return nil, c.Err
	}
	if len(c.Body) == 1 {
		if xs, ok := c.Body[0].([][]any); ok {
			refs := make([]objRef, 0, len(xs))
			for _, x := range xs {
				if len(x) != 2 {
					return nil, dbus.FormatError("not an object reference")
				}
				bus, ok1 := x[0].(string)
				path, ok2 := x[1].(dbus.ObjectPath)
				if !ok1 || !ok2 {
					return nil, dbus.FormatError("not an object reference")
				}
				refs = append(refs, objRef{bus, path})
			}
			return refs, nil
		}
	}
	var refs []objRef
	return refs, c.Store(&refs)
}

// answerExtents is a call's one answer as extents: (iiii).
func answerExtents(c *dbus.Call) (extents, error) {
	if c.Err != nil {
		return extents{}, c.Err
	}
	if len(c.Body) == 1 {
		if x, ok := c.Body[0].([]any); ok && len(x) == 4 {
			var v [4]int32
			for i := range x {
				n, ok := x[i].(int32)
				if !ok {
					return extents{}, dbus.FormatError("extents are four int32")
				}
				v[i] = n
			}
			return extents{v[0], v[1], v[2], v[3]}, nil
		}
	}
	var e extents
	return e, c.Store(&e)
}
