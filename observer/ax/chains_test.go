package ax

import (
	"slices"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// The actions every platform declares a chain for.
var chainActions = []string{"click", "press", "set_value", "type", "focus", "scroll_to", "expand", "collapse",
	"select", "toggle", "check", "uncheck", "key"}

// physicalAllowed is the physical input each action may fall back to; scroll_to sends no wheel
// input, and press, expand and collapse name AX behaviour that a click would only guess at.
var physicalAllowed = map[string][]observer.InputKind{
	"click": {observer.InputClick}, "set_value": {observer.InputType}, "type": {observer.InputType},
	"toggle": {observer.InputClick}, "check": {observer.InputClick}, "uncheck": {observer.InputClick},
	"key": {observer.InputKey},
}

func TestChainsShape(t *testing.T) {
	chains := Chains()
	checkChains(t, chains, physicalAllowed)
	// The seed's order for click, and the press chain's dynamic action.
	var names []string
	for _, s := range chains["click"].Steps {
		names = append(names, s.Name())
	}
	want := []string{"perform AXPress", "perform AXConfirm", "perform AXOpen", "on_children(perform AXPress)",
		"custom select via parent", "custom show alternate UI", "with_focus(perform AXPress)", "physical click"}
	if !slices.Equal(names, want) {
		t.Errorf("click = %q, want %q", names, want)
	}
	if s := chains["press"].Steps[0]; s.Kind != observer.StepPerform || s.Action != observer.Dynamic {
		t.Errorf("press starts with %+v", s)
	}
	if c := chains["focus"]; c.Proof != model.StateFocused || c.Steps[0].Attr != "AXFocused" {
		t.Errorf("focus = %+v", c)
	}
	if c := chains["check"]; c.Proof != model.StateChecked {
		t.Errorf("check proof = %v", c.Proof)
	}
	for _, a := range []string{"toggle", "check", "uncheck"} {
		if !chains[a].Stateful {
			t.Errorf("%s is not stateful", a)
		}
	}
	for _, a := range []string{"click", "press", "set_value", "type", "focus", "scroll_to", "expand", "collapse", "select", "key"} {
		if chains[a].Stateful {
			t.Errorf("%s is stateful", a)
		}
	}
}

// checkChains checks what every platform's chains must hold: one per action, none unknown, each
// with a suggestion and well-formed steps, physical steps last and only where allowed.
func checkChains(t *testing.T, chains observer.Chains, allowed map[string][]observer.InputKind) {
	t.Helper()
	for _, a := range chainActions {
		if _, ok := chains[a]; !ok {
			t.Errorf("no chain for %s", a)
		}
	}
	for a, c := range chains {
		if !slices.Contains(chainActions, a) {
			t.Errorf("chain for unknown action %q", a)
		}
		if c.Suggestion == "" {
			t.Errorf("%s: no suggestion", a)
		}
		if len(c.Steps) == 0 {
			t.Errorf("%s: no steps", a)
		}
		physical := false
		for i, s := range c.Steps {
			checkStep(t, a, s, false)
			if s.Kind == observer.StepPhysical {
				physical = true
				if !slices.Contains(allowed[a], s.Input.Kind) {
					t.Errorf("%s: step %d is physical %s input, allowed %v", a, i, s.Input.Kind, allowed[a])
				}
			} else if physical {
				t.Errorf("%s: step %d (%s) follows a physical step", a, i, s.Name())
			}
		}
	}
}

func checkStep(t *testing.T, action string, s observer.Step, inner bool) {
	t.Helper()
	bad := func(why string) { t.Errorf("%s: step %s: %s", action, s.Name(), why) }
	switch s.Kind {
	case observer.StepPerform:
		if s.Action == "" {
			bad("no action")
		}
	case observer.StepSetAttr:
		if s.Attr == "" || s.Value == nil {
			bad("no attribute or value")
		}
		switch s.Value.(type) {
		case string, bool, float64:
		default:
			bad("value is not a string, bool or float64")
		}
	case observer.StepWithFocus, observer.StepOnChildren, observer.StepOnAncestors:
		if s.Inner == nil {
			bad("no inner step")
			return
		}
		if s.Kind == observer.StepWithFocus && (s.Attr == "" || s.Value != true) {
			bad("with_focus needs the focus attribute and true")
		}
		if s.Kind != observer.StepWithFocus && s.Limit <= 0 {
			bad("no limit")
		}
		checkStep(t, action, *s.Inner, true)
	case observer.StepCustom:
		if s.Run == nil || s.Label == "" {
			bad("a custom step needs Run and Label")
		}
	case observer.StepPhysical:
		if inner {
			bad("physical input inside another step escapes the physical policy")
		}
		if s.Input.Kind == "" {
			bad("no input kind")
		}
		if s.Run != nil && s.Label == "" {
			bad("a physical sequence needs a label")
		}
	default:
		bad("unknown kind")
	}
}
