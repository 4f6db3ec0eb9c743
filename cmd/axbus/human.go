package main

import (
	"fmt"
	"io"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/textform"
)

// humanForm is the writer of v's human form (textform's, or the command's own), or nil when v
// has none (it is then indented JSON).
func humanForm(v any) func(io.Writer) error {
	switch r := v.(type) {
	case interface{ human(io.Writer) error }:
		return r.human
	case *api.CredsReply:
		return func(w io.Writer) error { return credsForm(w, r) }
	case *api.AgentsReply:
		return func(w io.Writer) error { return agentsForm(w, r) }
	}
	return textform.Of(v)
}

// event writes one event of a tail.
func (p *printer) event(env *api.Envelope) error {
	if !p.human {
		return p.enc.Encode(env)
	}
	_, err := fmt.Fprintln(p.w, textform.EventLine(env))
	return err
}
