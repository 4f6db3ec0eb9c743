package condition

import (
	"strings"

	"github.com/axbus/axbus/model"
)

// follow says what may come after the leaf read last.
func (p *parser) follow() string {
	var can []string
	if l := p.last; l != nil {
		switch {
		case kindFields[l.Kind]&fieldTitle != 0 && l.Title == nil:
			can = append(can, "':'")
		case l.Kind == KindElement && !l.Gone, l.Kind == KindFocused,
			(l.Kind == KindValue || l.Kind == KindState) && l.Target == "" && !l.isElementFree():
			can = append(can, "','")
		}
		if (l.Kind == KindText || l.Kind == KindElement) && !l.Gone {
			can = append(can, "'gone'")
		}
	}
	can = append(can, "'and'", "'or'")
	if p.parens > 0 {
		return orList(append(can, "')'"))
	}
	return orList(append(can, "the end"))
}

// singleQuoted puts each word in single quotes, as error messages show tokens.
func singleQuoted(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + w + "'"
	}
	return out
}

// orList writes "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func (p *parser) twice(name token) error {
	return p.failAt(name.col, name.text+" is given twice", "Give each field once.")
}

func (p *parser) expected(what string) error {
	return p.syntaxError(&syntaxFault{col: p.tok.col, expected: what, found: p.tok.describe()})
}

func (p *parser) syntaxError(f *syntaxFault) error {
	return model.Errorf(model.CodeBadRequest, p.example(), "at column %d: expected %s, found %s", f.col, f.expected, f.found).
		With("position", f.col).With("expected", f.expected).With("found", f.found)
}

// place turns a validation fault into an error at the column where the faulty part was written;
// a missing part is placed where it was due, after the condition.
func (p *parser) place(f *fault) error {
	sp := p.spans[f.node]
	col := sp.start
	if f.field != "" {
		col = sp.end
		if at, ok := sp.fields[f.field]; ok {
			col = at
		}
	}
	suggestion := f.suggestion
	if suggestion == "" {
		suggestion = compactExample(f.node.Kind)
	}
	return p.failWith(f.codeOf(), col, f.what, suggestion)
}

func (p *parser) failAt(col int, what, suggestion string) error {
	return p.failWith(model.CodeBadRequest, col, what, suggestion)
}

func (p *parser) failWith(code model.Code, col int, what, suggestion string) error {
	return model.Errorf(code, suggestion, "at column %d: %s", col, what).With("position", col)
}

// compactKindExamples are the suggestions of syntax errors, by the kind of the leaf being read.
var compactKindExamples = map[Kind]string{
	KindText:       `e.g. text:"Saved", text~saved, text:/^Saved( at .*)?$/ or text:"Saved" gone`,
	KindElement:    `e.g. element:role=button,name~Save or element:name="Remember me",state=checked gone`,
	KindFocused:    `e.g. focused:role=text_field or focused:name~Email`,
	KindWindow:     `e.g. window, window:title~Report or window:title=/^Report( \(\d+\))?$/`,
	KindWindowGone: `e.g. window_gone or window_gone:title="Report"`,
	KindDialog:     `e.g. dialog or dialog:title~Save`,
	KindValue:      `e.g. value:e12=42, value:e12~4, value:role=slider,name=Volume,value=42 or, in an expect, value:"42"`,
	KindState:      `e.g. state:e7=checked, state:e7!=checked, state:role=checkbox,name~Remember,state=checked or, in an expect, state:checked`,
}

func (p *parser) example() string {
	if p.locator {
		return locatorExample
	}
	return compactExample(p.kind)
}

// compactExample shows conditions of kind k, or of any kind.
func compactExample(k Kind) string {
	if e, ok := compactKindExamples[k]; ok {
		return e
	}
	return `Write a condition like text:"Saved", element:role=button,name~Save or window:title~Report; join conditions with and, or and parentheses.`
}
