package ax

import (
	"github.com/axbus/axbus/model"
	"github.com/axbus/axbus/observer"
)

// Physical input is checked and resolved into events before anything is sent, so that a request
// that cannot be sent fails without bringing its app to the front.

// The CGEvent mouse constants (CGEventTypes.h).
const (
	eventLeftMouseDown  = 1
	eventLeftMouseUp    = 2
	eventRightMouseDown = 3
	eventRightMouseUp   = 4
	eventMouseMoved     = 5
	eventOtherMouseDown = 25
	eventOtherMouseUp   = 26

	mouseButtonLeft   = 0
	mouseButtonRight  = 1
	mouseButtonCenter = 2
)

// inputPlan is one physical input resolved: a click, or key combinations (keys, or the
// keystrokes of text).
type inputPlan struct {
	click  *clickPlan
	combos []keyCombo
}

// clickPlan is a click of one button at (x, y), count times (a double click is two).
type clickPlan struct {
	x, y     float64
	down, up uint32 // the event types of the button
	button   uint32 // its CGMouseButton
	count    int
}

// planInput resolves in; a request that cannot be sent is BAD_REQUEST.
func planInput(in observer.Input) (inputPlan, error) {
	switch in.Kind {
	case observer.InputClick:
		c := clickPlan{x: in.X, y: in.Y, count: max(in.Count, 1)}
		switch in.Button {
		case 0, 1:
			c.down, c.up, c.button = eventLeftMouseDown, eventLeftMouseUp, mouseButtonLeft
		case 2:
			c.down, c.up, c.button = eventOtherMouseDown, eventOtherMouseUp, mouseButtonCenter
		case 3:
			c.down, c.up, c.button = eventRightMouseDown, eventRightMouseUp, mouseButtonRight
		default:
			return inputPlan{}, model.ErrButton(in.Button)
		}
		return inputPlan{click: &c}, nil
	case observer.InputType:
		return inputPlan{combos: textCombos(in.Text)}, nil
	case observer.InputKey:
		combos, err := parseKeys(in.Keys)
		if err != nil {
			return inputPlan{}, model.Errorf(model.CodeBadRequest, `Give keys like "cmd+a", "shift+Tab" or "Return", separated by spaces.`,
				"%v", err).Wrap(err)
		}
		return inputPlan{combos: combos}, nil
	}
	return inputPlan{}, observer.ErrInputKind(in.Kind)
}

// empty reports whether the plan sends no event (typing ""): there is nothing to bring the app
// to the front for.
func (p inputPlan) empty() bool { return p.click == nil && len(p.combos) == 0 }
