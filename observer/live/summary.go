package live

import "github.com/axbus/axbus/model"

// summarize is n's DiffElement under the parent keyed parentKey.
func summarize(n *model.Node, parentKey string) model.DiffElement {
	e := model.DiffElement{
		Key: model.ElementKey(n.Ref), Parent: parentKey, Role: n.Role, PlatformRole: n.PlatformRole,
		Name: n.Name, States: n.States, Bounds: n.Bounds, Ref: n.Ref,
	}
	if e.Name == "" {
		e.Name = n.Label
	}
	if !n.Secure { // a backend never reads a secure field's text; this is the second lock
		if n.HasValue {
			v := n.Value
			e.Value = &v
		}
		if n.Text != e.Name {
			e.Text = n.Text
		}
	}
	return e
}

// changesFrom lists the fields in which e differs from old; nil when none do.
func changesFrom(e, old *model.DiffElement) map[string]model.FieldChange {
	var out map[string]model.FieldChange
	note := func(field string, differ bool, was, now any) {
		if !differ {
			return
		}
		if out == nil {
			out = map[string]model.FieldChange{}
		}
		out[field] = model.FieldChange{Old: was, New: now}
	}
	note("role", e.Role != old.Role, old.Role, e.Role)
	note("platform_role", e.PlatformRole != old.PlatformRole, old.PlatformRole, e.PlatformRole)
	note("name", e.Name != old.Name, old.Name, e.Name)
	note("value", !samePointee(e.Value, old.Value), old.Value, e.Value)
	note("text", e.Text != old.Text, old.Text, e.Text)
	note("states", e.States != old.States, old.States, e.States)
	note("bounds", !samePointee(e.Bounds, old.Bounds), old.Bounds, e.Bounds)
	note("parent", e.Parent != old.Parent, old.Parent, e.Parent)
	return out
}

// samePointee reports whether a and b are both nil or point to equal values.
func samePointee[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
