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
	case *api.StatusReply:
		return func(w io.Writer) error { return statusForm(w, r) }
	case *api.ConsoleReply:
		return func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "%s\n(open it in a browser on this machine; its token is good once, for 10 minutes)\n", r.URL)
			return err
		}
	}
	return textform.Of(v)
}

// event writes one event of a tail.
func (p *printer) event(env *api.Envelope) error {
	if !p.human {
		return p.enc.Encode(env)
	}
	return p.line(env.Host, textform.EventLine(env))
}

// line writes one line of a tail, its host first when it follows many.
func (p *printer) line(host, line string) error {
	if p.hosts {
		line = host + "  " + line
	}
	_, err := fmt.Fprintln(p.w, line)
	return err
}
