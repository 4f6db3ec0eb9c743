package condition

import (
	"errors"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

// TestElementFreeIsTheActionsTarget: a value or state that names no element parses (it is an
// expect's way to test the action's own target), AimAt names the target for it, and a wait,
// which has no target to lend, refuses it at its place with a suggestion that names the element.
func TestElementFreeIsTheActionsTarget(t *testing.T) {
	c, err := ParseCompact(`text:"Saved" and state:checked and value~4`)
	if err != nil {
		t.Fatal(err)
	}
	if !c.ElementFree() {
		t.Fatal("state:checked names no element, yet ElementFree is false")
	}
	err = c.CheckElementsNamed()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeBadRequest || e.Details["path"] != "/of/1" ||
		!strings.Contains(e.Message, "state:checked names no element") || !strings.Contains(e.Suggestion, "state:eN=checked") {
		t.Fatalf("a wait's element-free state: %v (%+v)", err, e)
	}
	c.AimAt("e5")
	if got := c.String(); got != `text:"Saved" and state:e5=checked and value:e5~4` {
		t.Fatalf("aimed at e5: %s", got)
	}
	if c.ElementFree() || c.CheckElementsNamed() != nil || c.Validate() != nil {
		t.Fatalf("aimed, %s still names no element", c)
	}
	if got := c.Targets(); len(got) != 1 || got[0] != "e5" {
		t.Fatalf("targets %v", got)
	}

	// Named elements, by id or by fields, stay as they are.
	for _, s := range []string{`state:e7=checked`, `state:role=checkbox,state=checked`, `value:value~4,state=focused`, `value:role=slider,value=4`} {
		c, err := ParseCompact(s)
		if err != nil {
			t.Fatal(err)
		}
		c.AimAt("e5")
		if c.ElementFree() || c.CheckElementsNamed() != nil || c.String() != s {
			t.Errorf("%s: aimed at e5 it reads %s", s, c)
		}
	}
}
