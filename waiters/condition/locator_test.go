package condition

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

func TestParseLocator(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`role=button,name=Save`, `role=button,name=Save`},
		{`element:role=button , name~save`, `role=button,name~save`},
		{`name=/^Row 35\d$/,nth=2`, `name=/^Row 35\d$/,nth=2`},
		{`dialog:title~Save >> role=button,name=OK`, `dialog:title~Save >> role=button,name=OK`},
		{`role=toolbar>>role=button,nth=1`, `role=toolbar >> role=button,nth=1`},
		{`identifier=saveButton,state=enabled`, `identifier=saveButton,state=enabled`},
	} {
		l, err := ParseLocator(c.in)
		if err != nil {
			t.Errorf("ParseLocator(%q): %v", c.in, err)
			continue
		}
		if got := l.String(); got != c.want {
			t.Errorf("ParseLocator(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if again, err := ParseLocator(l.String()); err != nil || again.String() != l.String() {
			t.Errorf("%q does not read back: %v", l.String(), err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{``, "expected a field"},
		{`nth=0,role=button`, "a number from 1"},
		{`role=button,nth=2,nth=3`, "nth is given twice"},
		{`role=button >> window:title=x`, "comes first"},
		{`window:title=Notes`, "'>>' and the element"},
		{`role=button >>`, "expected a field"},
		{`colour=red`, "expected a field"},
		{`role=button name=Save`, "expected ',', '>>' or the end"},
	} {
		_, err := ParseLocator(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || model.CodeOf(err) != model.CodeBadRequest {
			t.Errorf("ParseLocator(%q) = %v, want BAD_REQUEST with %q", c.in, err, c.want)
		}
	}
}

func TestIsLocator(t *testing.T) {
	for in, want := range map[string]bool{
		`role=button,name=Save`:      true,
		`name~Save`:                  true,
		`dialog >> role=button`:      true,
		`text:"Saved"`:               false,
		`element:role=button`:        false,
		`window:title~Report`:        false,
		`state:e3=checked`:           false,
		`text:"a >> b"`:              false,
		`element:name=a >> name=b`:   true,
		`value:role=slider,value=42`: false,
	} {
		if got := IsLocator(in); got != want {
			t.Errorf("IsLocator(%q) = %v, want %v", in, got, want)
		}
	}
}

// FuzzParseLocator: any text parses or is refused with a BAD_REQUEST at a column within it,
// never a panic; what parses renders to a form that parses back the same, and searches the
// Notes window's copy without a panic.
func FuzzParseLocator(f *testing.F) {
	for _, s := range []string{`role=button,name=Save`, `dialog:title~Save >> role=button,name=OK`, `name=/^Row 35\d$/,nth=2`,
		`window >> role=toolbar>>name~s,state!=focused`, `element:identifier=saveButton`, `nth=3`, `role=button >> window`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLocator(s)
		if err != nil {
			checkRefused(t, s, err)
			return
		}
		again, err := ParseLocator(l.String())
		if err != nil || again.String() != l.String() {
			t.Fatalf("%q renders as %q, which reads back as %v (%v)", s, l.String(), again, err)
		}
		l.FindIn(notesInspection())
	})
}

// notesInspection is a small inspection to search: a window, a toolbar with a button, a field.
func notesInspection() *model.Inspection {
	v := "Shopping list"
	return &model.Inspection{SnapshotID: "s_1", Window: model.WindowRef{ID: "w1", Title: "Notes"}, Elements: []model.Element{
		{ID: "e0", Depth: 0, Role: model.RoleWindow, Name: "Notes"},
		{ID: "e1", Depth: 1, Parent: "e0", Role: model.RoleToolbar},
		{ID: "e2", Depth: 2, Parent: "e1", Role: model.RoleButton, Name: "Save", States: model.StateEnabled},
		{ID: "e3", Depth: 1, Parent: "e0", Role: model.RoleTextField, Name: "Title", Value: &v},
	}}
}

func TestFindIn(t *testing.T) {
	for expr, want := range map[string]string{
		`role=button`:                       "e2",
		`role=toolbar >> name=Save`:         "e2",
		`window:title=Notes >> role=button`: "e2",
		`dialog >> role=button`:             "",
		`role=text_field >> role=button`:    "",
		`value~shopping`:                    "e3",
		`name~t,nth=2`:                      "e3",
		`state=enabled`:                     "e2",
	} {
		l, err := ParseLocator(expr)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, el := range l.FindIn(notesInspection()) {
			got = append(got, el.ID)
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s found %v, want %q", expr, got, want)
		}
	}
}
