package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/axbus/axbus/model"
)

// textPiece is the text one element gives a read, with what decides whether it shares a line
// with the piece before it.
type textPiece struct {
	text string      // cleaned: no trailing spaces on any line, no leading or trailing blank lines
	rect *model.Rect // nil when the element has no usable bounds
	// anchor is the element whose lines hold the piece (see textLayout.anchor); cell the table
	// cell holding it, -1 outside tables; inRow is set when anchor is a row.
	anchor, cell int
	inRow        bool
	multiline    bool
	// spaceBefore and spaceAfter record whitespace the raw text began or ended with: an inline
	// run that carried its own space joins its neighbour with exactly one.
	spaceBefore, spaceAfter bool
}

// cleanText normalises an element's raw text: valid UTF-8, newlines for carriage returns and
// Unicode line and paragraph separators, no stray object replacement characters, no trailing
// spaces on any line, no blank lines around the text, and no leading space on a single line.
func cleanText(raw string) (text string, spaceBefore, spaceAfter bool) {
	if raw == "" {
		return "", false, false
	}
	s := strings.ToValidUTF8(raw, "\uFFFD")
	s = lineBreaks.Replace(s)
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	spaceBefore, spaceAfter = unicode.IsSpace(first), unicode.IsSpace(last)
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimRightFunc(lines[i], unicode.IsSpace)
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 1 {
		lines[0] = strings.TrimLeftFunc(lines[0], unicode.IsSpace)
	}
	return strings.Join(lines, "\n"), spaceBefore, spaceAfter
}

var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n", string(objectReplacement), "")

// textSeparator is what goes between two consecutive pieces: "\n" for a new line, "\t" between
// the cells of a row, " " or "" between the runs of one line.
func textSeparator(p, q *textPiece) string {
	if p.multiline || q.multiline || p.anchor != q.anchor {
		return "\n"
	}
	if p.cell != q.cell && (p.cell >= 0 || q.cell >= 0) {
		if p.rect != nil && q.rect != nil {
			if sameVisualLine(*p.rect, *q.rect) {
				return "\t"
			}
			return "\n"
		}
		if p.inRow {
			return "\t"
		}
		return "\n"
	}
	if p.rect == nil || q.rect == nil || !sameVisualLine(*p.rect, *q.rect) || !readsOn(*p.rect, *q.rect) {
		return "\n"
	}
	return inlineJoin(p, q)
}

// sameVisualLine reports whether a and b overlap vertically by more than half the smaller
// height: neighbours on one line, not stacked lines that touch.
func sameVisualLine(a, b model.Rect) bool {
	overlap := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	return overlap > min(a.H, b.H)/2
}

// readsOn reports whether b continues a's line: it starts to the right of a's start, or one
// holds the other (a wrapped paragraph and a link inside it).
func readsOn(a, b model.Rect) bool {
	return b.X >= a.X-1 || a.Holds(b) || b.Holds(a)
}

// inlineJoin joins two runs of one line with one space, or none when the second begins with
// closing punctuation or the first ends with opening punctuation and neither brought a space:
// web text split around a link ("see " + "docs" + ". More") reads as written.
func inlineJoin(p, q *textPiece) string {
	if p.spaceAfter || q.spaceBefore {
		return " "
	}
	next, _ := utf8.DecodeRuneInString(q.text)
	prev, _ := utf8.DecodeLastRuneInString(p.text)
	if strings.ContainsRune(".,;:!?)]}%'\"’”…", next) || strings.ContainsRune("([{‘“", prev) {
		return ""
	}
	return " "
}
