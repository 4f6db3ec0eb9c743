package condition

import (
	"strings"
	"unicode"
)

// String renders c in the compact form, canonically: ParseCompact(c.String()) gives back c's
// canonical JSON. Fields come in canonical order; a field's value is bare when it is a plain
// word, else quoted; a text is always quoted; a regex is /…/.
func (c *Condition) String() string {
	var b strings.Builder
	c.render(&b)
	return b.String()
}

func (c *Condition) render(b *strings.Builder) {
	switch c.Kind {
	case KindAll, KindAny:
		c.renderTerms(b)
		return
	case KindText:
		b.WriteString("text")
		if c.Text != nil {
			renderText(b, c.Text)
		}
	case KindWindow, KindWindowGone, KindDialog:
		b.WriteString(string(c.Kind))
		if c.Title != nil {
			b.WriteString(":title")
			renderMatch(b, c.Title)
		}
	case KindValue, KindState:
		switch {
		case c.isElementFree() && c.Kind == KindValue && c.Value != nil:
			b.WriteString("value")
			renderText(b, c.Value) // value:"42", value~"4", value:/^4/, as text writes it
			return
		case c.isElementFree() && c.Kind == KindState:
			b.WriteString("state")
			if c.Off {
				b.WriteString("!=")
			} else {
				b.WriteByte(':')
			}
			renderString(b, c.State, "", true)
			return
		}
		if c.Target != "" {
			b.WriteString(string(c.Kind) + ":" + c.Target)
			if c.Kind == KindValue && c.Value != nil {
				renderMatch(b, c.Value)
			} else {
				renderState(b, c.State, c.Off)
			}
			return
		}
		fallthrough
	default:
		b.WriteString(string(c.Kind) + ":")
		c.renderFields(b)
	}
	if c.Gone {
		b.WriteString(" gone")
	}
}

// renderTerms writes the terms of an all or any. A term that is an any inside an all, or a list
// of the same kind as its parent, is parenthesised: and binds tighter than or, and a list inside
// a list of its kind must stay one.
func (c *Condition) renderTerms(b *strings.Builder) {
	sep := " and "
	if c.Kind == KindAny {
		sep = " or "
	}
	for i, sub := range c.Of {
		if i > 0 {
			b.WriteString(sep)
		}
		if sub == nil {
			b.WriteString("()")
			continue
		}
		paren := sub.Kind == KindAny || sub.Kind == c.Kind
		if paren {
			b.WriteByte('(')
		}
		sub.render(b)
		if paren {
			b.WriteByte(')')
		}
	}
}

// renderFields writes c's element fields, and a state condition's own state, as field=value
// pairs separated by commas.
func (c *Condition) renderFields(b *strings.Builder) {
	sep := ""
	next := func(name string) {
		b.WriteString(sep + name)
		sep = ","
	}
	if c.Role != "" {
		next("role=")
		renderString(b, c.Role, "", true)
	}
	for _, f := range c.matchFields() {
		if m := *f.at; m != nil && f.field != fieldTitle {
			next(f.name)
			renderMatch(b, m)
		}
	}
	for _, s := range c.States {
		next("state")
		renderState(b, s, false)
	}
	for _, s := range c.NotStates {
		next("state")
		renderState(b, s, true)
	}
	if c.Kind == KindState {
		next("state")
		renderState(b, c.State, c.Off)
	}
}

func renderState(b *strings.Builder, state string, off bool) {
	if off {
		b.WriteString("!=")
	} else {
		b.WriteByte('=')
	}
	renderString(b, state, "", true)
}

// renderText writes a text condition's match: text:"…" (exact), text~"…" (contains), text:/…/.
func renderText(b *strings.Builder, m *StringMatch) {
	switch m.Op {
	case OpContains:
		b.WriteByte('~')
	default:
		b.WriteByte(':')
	}
	renderValue(b, m, false)
}

// renderMatch writes a field's match: =value (exact), ~value (contains), =/regex/.
func renderMatch(b *strings.Builder, m *StringMatch) {
	if m.Op == OpContains {
		b.WriteByte('~')
	} else {
		b.WriteByte('=')
	}
	renderValue(b, m, true)
}

// renderValue writes m's value with its case flag when the case is not the op's default.
func renderValue(b *strings.Builder, m *StringMatch, bare bool) {
	flag := ""
	if m.Case != "" && m.Case != defaultCase(m.Op) {
		flag = caseFlags[m.Case]
	}
	if m.Op == OpRegex {
		renderRegex(b, m.Value)
		b.WriteString(flag)
		return
	}
	renderString(b, m.Value, flag, bare)
}

// caseFlags are the letters that follow a quoted string or a regex to set its case, as in CSS
// attribute selectors: i ignores case, s respects it.
var caseFlags = map[Case]string{CaseInsensitive: "i", CaseSensitive: "s"}

// renderString writes s bare when allowed and s is a plain word without a flag, else quoted.
func renderString(b *strings.Builder, s, flag string, bare bool) {
	if bare && flag == "" && isPlainWord(s) {
		b.WriteString(s)
		return
	}
	b.WriteByte('"')
	b.WriteString(quoteEscaper.Replace(s))
	b.WriteString(`"` + flag)
}

// quoteEscaper escapes what a quoted string must: its quote and the escape character.
var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// isPlainWord reports whether s can be written without quotes: letters, digits, _ - and .,
// and no keyword of the language.
func isPlainWord(s string) bool {
	if s == "" || s == "and" || s == "or" || s == "gone" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-.", r) {
			return false
		}
	}
	return true
}

// renderRegex writes pattern as /…/, each / written \/. A pattern that holds \/ itself (RE2's
// escaped slash) cannot be written so, since \/ stands for /: it is written re"…" instead, a
// quoted string taken as a regex.
func renderRegex(b *strings.Builder, pattern string) {
	var lit strings.Builder
	lit.WriteByte('/')
	for i := 0; i < len(pattern); i++ {
		switch ch := pattern[i]; {
		case ch == '\\' && i+1 < len(pattern) && pattern[i+1] != '/':
			lit.WriteString(pattern[i : i+2]) // an escape other than \/ passes as it is
			i++
		case ch == '\\':
			b.WriteString("re")
			renderString(b, pattern, "", false)
			return
		case ch == '/':
			lit.WriteString(`\/`)
		default:
			lit.WriteByte(ch)
		}
	}
	lit.WriteByte('/')
	b.WriteString(lit.String())
}
