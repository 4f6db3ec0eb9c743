package textform

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"
)

// structuralRoles lay other elements out: one without a name, a value or a state worth saying,
// that takes no focus, is folded away and its children take its place. An unnamed label is one
// too: HTML's <label> wraps the text that names a control.
var structuralRoles = map[model.Role]bool{
	model.RoleFiller: true, model.RolePanel: true, model.RoleGroup: true, model.RoleSplitGroup: true,
	model.RoleScrollArea: true, model.RoleLabel: true,
}

// echoRoles are the roles of a run of text that may only repeat the element it is in: the text of
// a web page's cell or heading, the label inside a GTK 4 button. One that says nothing more is
// folded away.
var echoRoles = map[model.Role]bool{model.RoleText: true, model.RoleLabel: true}

// toggleRoles show their value as a state (checked, mixed): their value says it again.
var toggleRoles = map[model.Role]bool{
	model.RoleCheckbox: true, model.RoleRadio: true, model.RoleSwitch: true, model.RoleToggleButton: true,
}

// inspectionForm is the header (the snapshot's id, once), one element a line indented by depth
// (id, role, name, value, the states that say something), then the text recognised from pixels
// when asked. Structural containers and repeated text are folded away (see elementLines).
func inspectionForm(w io.Writer, insp *model.Inspection) error {
	lines, folded := elementLines(insp.Elements)
	fmt.Fprintf(w, "snapshot %s: %s (pid %d), window %q: %d elements", insp.SnapshotID, insp.App.Name, insp.App.PID, insp.Window.Title, len(insp.Elements))
	if folded > 0 {
		fmt.Fprintf(w, ", %d folded", folded)
	}
	if insp.OffscreenOmitted > 0 {
		fmt.Fprintf(w, ", %d off screen", insp.OffscreenOmitted)
	}
	if insp.Truncated {
		var cut []string
		for _, t := range insp.Truncation {
			cut = append(cut, string(t))
		}
		fmt.Fprintf(w, ", cut by %s", strings.Join(cut, ","))
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return recognizedForm(w, insp.RecognizedText)
}

// placed is where a listed element's children go: their depth, and the words they would only
// repeat (those of the nearest printed ancestor).
type placed struct {
	depth       int
	name, value string
}

// elementLines are the lines of the elements worth a line, indented by their printed ancestors,
// and how many were folded away: a structural container with nothing of its own to say (its
// children are printed at its depth), and text that repeats the name or value of the element it
// is in. The first element, the listing's root, is always printed.
func elementLines(els []model.Element) (lines []string, folded int) {
	at := make(map[string]placed, len(els))
	for i := range els {
		el := &els[i]
		up, ok := at[el.Parent]
		if !ok {
			up.depth = el.Depth - els[0].Depth
		}
		states := stateWords(el.Role, el.States)
		value, hasValue := shownValue(el)
		says := len(states) > 0 || hasValue || el.Secure || el.States.Has(model.StateFocusable)
		structural := structuralRoles[el.Role] && el.Name == "" && !says
		echo := echoRoles[el.Role] && el.Children == 0 && el.Name != "" && !says && (el.Name == up.name || el.Name == up.value)
		if i > 0 && (structural || echo) {
			at[el.ID] = up
			folded++
			continue
		}
		at[el.ID] = placed{depth: up.depth + 1, name: el.Name, value: value}
		lines = append(lines, elementLine(el, up.depth, states, value, hasValue))
	}
	return lines, folded
}

// elementLine is `e12 button "Save" [disabled]`, indented two spaces a level.
func elementLine(el *model.Element, depth int, states []string, value string, hasValue bool) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("  ", depth) + el.ID + " " + string(el.Role))
	if el.Name != "" {
		b.WriteString(" " + strconv.Quote(Short(el.Name, 60)))
	}
	if hasValue {
		b.WriteString(" value=" + strconv.Quote(Short(value, 40)))
	}
	if el.Secure {
		b.WriteString(" (secure)")
	}
	if len(states) > 0 {
		b.WriteString(" [" + strings.Join(states, ",") + "]")
	}
	return b.String()
}

// shownValue is an element's value when it says something: not a secure field's (never read),
// not empty, not its name again, not a toggle's (its state says it).
func shownValue(el *model.Element) (string, bool) {
	if el.Value == nil || el.Secure || *el.Value == "" || *el.Value == el.Name || toggleRoles[el.Role] {
		return "", false
	}
	return *el.Value, true
}

// recognizedForm is the text recognised from the window's pixels, one line each with its box as
// fractions of the window (x,y from its top-left corner, then width x height).
func recognizedForm(w io.Writer, rt *model.RecognizedText) error {
	if rt == nil {
		return nil
	}
	fmt.Fprintf(w, "text from pixels (OCR, may be wrong; boxes as fractions of the window): %d lines", len(rt.Lines))
	if rt.Truncated != "" {
		fmt.Fprintf(w, ", cut by the %s", rt.Truncated)
	}
	if rt.Error != nil {
		fmt.Fprintf(w, ", none: %s: %s", rt.Error.Code, rt.Error.Message)
	}
	fmt.Fprintln(w)
	for _, l := range rt.Lines {
		b := l.Box
		if _, err := fmt.Fprintf(w, "  %s at %.2f,%.2f %.2fx%.2f\n", strconv.Quote(Short(l.Text, 80)), b.X, b.Y, b.W, b.H); err != nil {
			return err
		}
	}
	return nil
}
