//go:build linux

package atspi

import (
	"math"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/observer"
)

// AT-SPI values as D-Bus carries them, and their decoding.

// relationLabelledBy is ATSPI_RELATION_LABELLED_BY.
const relationLabelledBy = 2

// objRef is an AT-SPI object reference on the wire: (so).
type objRef struct {
	Bus  string
	Path dbus.ObjectPath
}

// actionDesc is one entry of Action.GetActions: (sss) name, description, key binding. The name
// is the localized one, which Chromium leaves empty: actionNames' empty names are asked again,
// one GetName(i) each, which answers the toolkit's own ("press", "jump", "check").
type actionDesc struct {
	Name, Description, KeyBinding string
}

// actionNames lists the names of Action.GetActions' entries, in order.
func actionNames(acts []actionDesc) []string {
	names := make([]string, len(acts))
	for i, a := range acts {
		names[i] = a.Name
	}
	return names
}

// variantRef reads an object reference out of a variant ("Parent" property, event data).
func variantRef(v dbus.Variant) observer.NodeRef {
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
