package client

import (
	"slices"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// EventKind names a kind of event: a type (layout_changed), or a type and the detail that sorts
// its events (state_changed:showing, children_changed:add). Readers leave kinds out with
// TailOptions.Exclude; a page of events coalesces a run of one kind.
type EventKind struct {
	Type model.EventType
	// Detail is the value of the type's sorting detail (kindDetails); "" for any.
	Detail string
}

// kindDetail is the detail that sorts a type's events, and the values it takes.
type kindDetail struct {
	key    string
	values []string
}

// kindDetails is the one table of the details that sort events: the state a state_changed is
// about, and what a children_changed or a text_changed did.
var kindDetails = map[model.EventType]kindDetail{
	model.EventStateChanged:    {"state", model.StateNames()},
	model.EventChildrenChanged: {"op", []string{"add", "remove"}},
	model.EventTextChanged:     {"op", []string{"insert", "delete"}},
}

// eventKindSyntax says how a kind is written, for help texts and errors.
const eventKindSyntax = "TYPE or TYPE:DETAIL (state_changed:showing, children_changed:add, text_changed:insert)"

// KindOf is the kind of an event: its type and the value of its sorting detail.
func KindOf(e *api.Envelope) EventKind {
	k := EventKind{Type: e.Type}
	if d, ok := kindDetails[e.Type]; ok {
		k.Detail, _ = e.Detail[d.key].(string)
	}
	return k
}

// Covers reports whether e is of kind k: of its type, and of its detail when k names one.
func (k EventKind) Covers(e *api.Envelope) bool {
	return e.Type == k.Type && (k.Detail == "" || KindOf(e).Detail == k.Detail)
}

// String is the kind as ParseEventKinds reads it.
func (k EventKind) String() string {
	if k.Detail == "" {
		return string(k.Type)
	}
	return string(k.Type) + ":" + k.Detail
}

// ParseEventKinds parses kinds as eventKindSyntax writes them; an unknown type or detail is
// BAD_REQUEST naming the known ones.
func ParseEventKinds(specs []string) ([]EventKind, error) {
	out := make([]EventKind, 0, len(specs))
	for _, s := range specs {
		typ, detail, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
		if typ == "" {
			return nil, model.Errorf(model.CodeBadRequest, "Write a kind as "+eventKindSyntax+".", "an empty event kind (%q)", s)
		}
		if err := CheckEventType(typ); err != nil {
			return nil, err
		}
		k := EventKind{Type: model.EventType(typ), Detail: detail}
		if detail != "" {
			d, ok := kindDetails[k.Type]
			if !ok {
				return nil, model.Errorf(model.CodeBadRequest, "Give "+typ+" alone: only "+sortedTypes()+" take a :DETAIL.",
					"%s events have no detail to choose by (%q)", typ, s)
			}
			if !slices.Contains(d.values, detail) {
				return nil, model.Errorf(model.CodeBadRequest, "Give one of: "+strings.Join(d.values, ", ")+".",
					"no %s %q in %q", typ+" "+d.key, detail, s).With("known", d.values)
			}
		}
		out = append(out, k)
	}
	return out, nil
}

// CheckEventType refuses a type that is no event type (BAD_REQUEST naming them); "" is every type.
func CheckEventType(typ string) error {
	if typ == "" || slices.Contains(model.EventTypes, model.EventType(strings.ToLower(typ))) {
		return nil
	}
	names := make([]string, len(model.EventTypes))
	for i, t := range model.EventTypes {
		names[i] = string(t)
	}
	return model.Errorf(model.CodeBadRequest, "Give one of: "+strings.Join(names, ", ")+".",
		"no event type %q", typ).With("known", names)
}

// sortedTypes are the types with a sorting detail, for a message.
func sortedTypes() string {
	var names []string
	for t := range kindDetails {
		names = append(names, string(t))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// Excludes reports whether one of kinds covers e.
func Excludes(kinds []EventKind, e *api.Envelope) bool {
	return slices.ContainsFunc(kinds, func(k EventKind) bool { return k.Covers(e) })
}
