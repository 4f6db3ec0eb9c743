package ax

import (
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

func TestPlanInputClick(t *testing.T) {
	for _, tc := range []struct {
		button            int
		down, up, button2 uint32
	}{
		{0, eventLeftMouseDown, eventLeftMouseUp, mouseButtonLeft},
		{1, eventLeftMouseDown, eventLeftMouseUp, mouseButtonLeft},
		{2, eventOtherMouseDown, eventOtherMouseUp, mouseButtonCenter},
		{3, eventRightMouseDown, eventRightMouseUp, mouseButtonRight},
	} {
		p, err := planInput(observer.Input{Kind: observer.InputClick, X: 10, Y: 20, Button: tc.button})
		if err != nil || p.click == nil {
			t.Fatalf("button %d: %+v, %v", tc.button, p, err)
		}
		c := *p.click
		if c.down != tc.down || c.up != tc.up || c.button != tc.button2 || c.x != 10 || c.y != 20 || c.count != 1 {
			t.Errorf("button %d: %+v", tc.button, c)
		}
	}
	p, _ := planInput(observer.Input{Kind: observer.InputClick, Count: 2})
	if p.click.count != 2 {
		t.Errorf("double click: count %d", p.click.count)
	}
}

// A request that cannot be sent fails in planning, before its app is brought to the front.
func TestPlanInputRefusesBeforeSending(t *testing.T) {
	for _, in := range []observer.Input{
		{Kind: observer.InputClick, Button: 4},
		{Kind: observer.InputKey, Keys: "hyper+a"},
		{Kind: observer.InputKey, Keys: ""},
		{Kind: "scroll"},
	} {
		p, err := planInput(in)
		if model.CodeOf(err) != model.CodeBadRequest {
			t.Errorf("%+v: plan %+v, err %v, want BAD_REQUEST", in, p, err)
		}
		if e := model.AsError(err); e != nil && e.Suggestion == "" {
			t.Errorf("%+v: no suggestion", in)
		}
	}
}

func TestPlanInputText(t *testing.T) {
	p, err := planInput(observer.Input{Kind: observer.InputType, Text: "Hi"})
	if err != nil || len(p.combos) != 2 || p.empty() {
		t.Fatalf("plan %+v, %v", p, err)
	}
	if h := p.combos[0]; h.code != 0x04 || h.text != "H" || len(h.mods) != 1 || h.mods[0] != modShift {
		t.Errorf("H = %+v", h)
	}
	if p, _ := planInput(observer.Input{Kind: observer.InputType}); !p.empty() {
		t.Errorf("typing nothing plans %+v", p)
	}
	if p, _ := planInput(observer.Input{Kind: observer.InputKey, Keys: "cmd+plus"}); p.empty() || p.combos[0].code != 0x18 {
		t.Errorf("cmd+plus plans %+v", p)
	}
}
