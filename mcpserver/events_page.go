package mcpserver

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/textform"
)

// eventsPage is the events tool's result and the events resource's body: a page of events in
// which a run of consecutive events of one app, type and detail is one entry, its last event
// with their count.
type eventsPage struct {
	Events   []pageEvent `json:"events"`
	Cursor   uint64      `json:"cursor"`
	More     bool        `json:"more"`
	Excluded int         `json:"excluded,omitempty"`
	Earlier  int         `json:"earlier,omitempty"`
}

// pageEvent is an entry of a page: an event, and the count of the run it ends (over 1).
type pageEvent struct {
	api.Envelope
	Count int `json:"count,omitempty"`
	// seq is the event's sequence in the stream: the cursor after the entry.
	seq uint64
}

// events is how many events the entry stands for.
func (e *pageEvent) events() int { return max(e.Count, 1) }

// newEventsPage is p with its runs coalesced.
func newEventsPage(p *client.EventsPage) *eventsPage {
	page := &eventsPage{Events: []pageEvent{}, Cursor: p.Cursor, More: p.More, Excluded: p.Excluded, Earlier: p.Earlier}
	for i := range p.Events {
		e, seq := &p.Events[i].Event, p.Events[i].Seq
		if n := len(page.Events); n > 0 && sameRun(&page.Events[n-1].Envelope, e) {
			page.Events[n-1] = pageEvent{Envelope: *e, Count: page.Events[n-1].events() + 1, seq: seq}
			continue
		}
		page.Events = append(page.Events, pageEvent{Envelope: *e, seq: seq})
	}
	return page
}

// sameRun reports whether b continues a's run: the same app and kind, a state turned the same
// way, no event dropped in between.
func sameRun(a, b *api.Envelope) bool {
	onA, _ := a.Detail["on"].(bool)
	onB, _ := b.Detail["on"].(bool)
	return b.Gap == 0 && a.App.Name == b.App.Name && client.KindOf(a) == client.KindOf(b) && onA == onB
}

// text is the page as an agent reads it: an entry a line (textform.EventLine, then ×N for a
// run), and a last line with the counts and the cursor, all within maxText. shown is the page the
// text shows: p, or when the text would be longer its entries up to the last line that fits,
// with that line's cursor and more set. (Its count of events left out is then the whole page's:
// read the page again with shown's events as the limit for theirs.)
func (p *eventsPage) text(exclude []client.EventKind) (text string, shown *eventsPage) {
	room := maxText - len(p.footer(p.events(), len(p.Events), exclude, true)) - 1
	var b strings.Builder
	for i := range p.Events {
		e := &p.Events[i]
		line := textform.EventLine(&e.Envelope)
		if e.Count > 1 {
			line += "  ×" + strconv.Itoa(e.Count)
		}
		if b.Len()+len(line)+1 > room {
			if i > 0 {
				cut := *p
				cut.Events, cut.Cursor, cut.More = p.Events[:i], p.Events[i-1].seq, true
				return b.String() + cut.footer(cut.events(), i, exclude, true), &cut
			}
			line = cutLine(line, room-1) // one line alone too long: the footer still goes in
		}
		b.WriteString(line + "\n")
	}
	return b.String() + p.footer(p.events(), len(p.Events), exclude, p.More), p
}

// events is how many events the page's entries stand for.
func (p *eventsPage) events() int {
	n := 0
	for i := range p.Events {
		n += p.Events[i].events()
	}
	return n
}

// footer is the page's last line: how many events in how many lines, how many left out, and the
// cursor to ask from next.
func (p *eventsPage) footer(events, lines int, exclude []client.EventKind, more bool) string {
	f := count(events, "event")
	if lines < events {
		f += " in " + count(lines, "line") + " (×N: a run of N alike, the last shown)"
	}
	if p.Excluded > 0 {
		kinds := make([]string, len(exclude))
		for i, k := range exclude {
			kinds[i] = k.String()
		}
		f += fmt.Sprintf("; %d left out by exclude [%s] ([] keeps all)", p.Excluded, textform.Short(strings.Join(kinds, ", "), 200))
	}
	if p.Earlier > 0 {
		f += fmt.Sprintf("; %d earlier left out", p.Earlier)
	}
	f += "; cursor " + strconv.FormatUint(p.Cursor, 10)
	if more {
		f += "; more follow: call again with this cursor"
	}
	return f
}

// count is n things, in words.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// cutLine shortens line to at most n bytes, on a rune's start, saying so.
func cutLine(line string, n int) string {
	const mark = " …"
	if len(line) <= n {
		return line
	}
	end := max(n-len(mark), 0)
	for end > 0 && !utf8.RuneStart(line[end]) {
		end--
	}
	return line[:end] + mark
}

// newest is the page as JSON in at most n bytes: its oldest entries left out (and counted in
// earlier) as far as needed.
func (p *eventsPage) newest(n int) []byte {
	for {
		body, _ := json.Marshal(p)
		if len(body) <= n || len(p.Events) == 0 {
			return body
		}
		over, drop := len(body)-n, 0
		for drop < len(p.Events) && over > 0 {
			entry, _ := json.Marshal(&p.Events[drop])
			over -= len(entry) + 1 // and its comma
			p.Earlier += p.Events[drop].events()
			drop++
		}
		p.Events = p.Events[drop:] // then again: earlier's own digits may still be too many
	}
}
