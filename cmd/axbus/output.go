package main

import (
	"encoding/json"
	"io"
	"os"
)

// isTerminal reports whether w is a character device (a person is reading).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// jsonOf is v as JSON, for a MarshalJSON of a reply made for printing.
func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }

// rawText is printed as it is, not as JSON.
type rawText string

// printer writes replies and events: for a person on a terminal in their compact human form
// (JSON indented where there is none), one JSON document a line for programs or with --json.
type printer struct {
	w     io.Writer
	human bool
	enc   *json.Encoder
	hosts bool // a tail's lines come from many hosts: each starts with its host
}

func (e *env) printer(forceJSON bool) *printer {
	return &printer{w: e.stdout, human: !forceJSON && isTerminal(e.stdout), enc: json.NewEncoder(e.stdout)}
}

// print writes one reply.
func (e *env) print(forceJSON bool, v any) error { return e.printer(forceJSON).reply(v) }

func (p *printer) reply(v any) error {
	if t, ok := v.(rawText); ok {
		_, err := io.WriteString(p.w, string(t)+"\n")
		return err
	}
	if !p.human {
		return p.enc.Encode(v)
	}
	if h := humanForm(v); h != nil {
		return h(p.w)
	}
	p.enc.SetIndent("", "  ")
	return p.enc.Encode(v)
}
