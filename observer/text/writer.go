package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// textWriter lays pieces out in lines and stops at the byte limit. A line is written out when
// the next piece starts a new one, trimmed of trailing whitespace, and dropped when it is empty;
// a line that would pass the limit is cut at once, so that a huge text value costs no more than
// the limit.
type textWriter struct {
	limit     int
	out       strings.Builder
	line      strings.Builder
	ends      []int // where each text piece of the line ends in it; empty cells are not counted
	full      bool
	truncated bool
	omitted   int
}

func (w *textWriter) write(pieces []textPiece) {
	for i := range pieces {
		p := &pieces[i]
		if i > 0 && !w.full {
			if sep := textSeparator(&pieces[i-1], p); sep == "\n" {
				w.endLine()
			} else {
				w.line.WriteString(sep)
			}
		}
		if w.full {
			if p.text != "" {
				w.omitted++
			}
			continue
		}
		w.line.WriteString(p.text)
		if p.text != "" {
			w.ends = append(w.ends, w.line.Len())
		}
		if w.pending() > w.limit {
			w.endLine() // it cannot fit: cut it now rather than build a huge line
		}
	}
	w.endLine()
}

// pending is the length the text would have with the current line written out.
func (w *textWriter) pending() int {
	n := w.out.Len() + len(strings.TrimRightFunc(w.line.String(), unicode.IsSpace))
	if w.out.Len() > 0 {
		n++
	}
	return n
}

// endLine writes the current line out, or as much of it as the limit leaves room for.
func (w *textWriter) endLine() {
	line := strings.TrimRightFunc(w.line.String(), unicode.IsSpace)
	ends := w.ends
	w.line.Reset()
	w.ends = w.ends[:0]
	if line == "" || w.full {
		return
	}
	sep := ""
	if w.out.Len() > 0 {
		sep = "\n"
	}
	room := w.limit - w.out.Len() - len(sep)
	if len(line) <= room {
		w.out.WriteString(sep)
		w.out.WriteString(line)
		return
	}
	w.full, w.truncated = true, true
	cut := max(room, 0)
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	kept := strings.TrimRightFunc(line[:cut], unicode.IsSpace)
	if kept != "" {
		w.out.WriteString(sep)
		w.out.WriteString(kept)
	}
	for _, e := range ends {
		if e > len(kept) {
			w.omitted++
		}
	}
}
