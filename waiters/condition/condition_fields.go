package condition

import "strings"

// fieldSet is a set of a condition's fields, by their JSON names; it says which fields a kind
// takes, and which ones a condition gives.
type fieldSet uint32

const (
	fieldRole fieldSet = 1 << iota
	fieldName
	fieldLabel
	fieldDescription
	fieldIdentifier
	fieldValue
	fieldText
	fieldStates
	fieldNotStates
	fieldTarget
	fieldState
	fieldOn
	fieldTitle
	fieldGone
	fieldOf
)

// fieldNames are the JSON names of the fields, in canonical order (kind comes first).
var fieldNames = []string{
	"role", "name", "label", "description", "identifier", "value", "text", "states", "not_states",
	"target", "state", "on", "title", "gone", "of",
}

// Which fields each kind takes. Selector fields pick an element for value and state; they take
// no state lists, since a state condition's state field is its own.
const (
	selectorFields = fieldRole | fieldName | fieldLabel | fieldDescription | fieldIdentifier | fieldValue | fieldText
	elementFields  = selectorFields | fieldStates | fieldNotStates
)

var kindFields = map[Kind]fieldSet{
	KindText:       fieldText | fieldGone,
	KindElement:    elementFields | fieldGone,
	KindFocused:    elementFields,
	KindWindow:     fieldTitle,
	KindWindowGone: fieldTitle,
	KindDialog:     fieldTitle,
	KindValue:      elementFields | fieldTarget,
	KindState:      selectorFields | fieldTarget | fieldState | fieldOn,
	KindAll:        fieldOf,
	KindAny:        fieldOf,
}

// fieldNamed returns the field called name, or false.
func fieldNamed(name string) (fieldSet, bool) {
	for i, n := range fieldNames {
		if n == name {
			return 1 << i, true
		}
	}
	return 0, false
}

// first returns the name of the first field of s, in canonical order.
func (s fieldSet) first() string {
	for i, n := range fieldNames {
		if s&(1<<i) != 0 {
			return n
		}
	}
	return ""
}

// names lists the names of the fields of s, in canonical order.
func (s fieldSet) names() string {
	var out []string
	for i, n := range fieldNames {
		if s&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, ", ")
}

// given returns the fields c gives (sets to something other than the zero value).
func (c *Condition) given() fieldSet {
	var s fieldSet
	set := func(f fieldSet, on bool) {
		if on {
			s |= f
		}
	}
	set(fieldRole, c.Role != "")
	for _, m := range c.matchFields() {
		set(m.field, *m.at != nil)
	}
	set(fieldStates, c.States != nil)
	set(fieldNotStates, c.NotStates != nil)
	set(fieldTarget, c.Target != "")
	set(fieldState, c.State != "")
	set(fieldOn, c.Off)
	set(fieldGone, c.Gone)
	set(fieldOf, c.Of != nil)
	return s
}

// matchField is one of a condition's string-match fields.
type matchField struct {
	name  string
	field fieldSet
	at    **StringMatch
}

// matchFields lists c's string-match fields in canonical order.
func (c *Condition) matchFields() []matchField {
	return []matchField{
		{"name", fieldName, &c.Name}, {"label", fieldLabel, &c.Label},
		{"description", fieldDescription, &c.Description}, {"identifier", fieldIdentifier, &c.Identifier},
		{"value", fieldValue, &c.Value}, {"text", fieldText, &c.Text}, {"title", fieldTitle, &c.Title},
	}
}
