package main

import (
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/client"
)

type tailCmd struct {
	Filter  string        `arg:"" optional:"" placeholder:"APP[.TYPE]" help:"which events, as in their subjects: an app (notes), an app's events of one type (notes.value_changed), one type of every app (*.focus_changed); none: all."`
	Since   time.Duration `help:"first replay the events of this last duration (e.g. 5m)."`
	All     bool          `help:"first replay all the history the stream keeps."`
	Last    bool          `help:"first replay the newest event of each app and type."`
	Exclude []string      `placeholder:"KIND" help:"leave out the events of these kinds: a type (layout_changed) or TYPE:DETAIL, the detail a state_changed's state or a children_changed's or text_changed's op (state_changed:showing); comma-separated or repeated."`

	Actions bool `help:"follow the action records instead (who did what to which element, and how it went); APP[.ACTION] filters them."`
	connFlags
}

// Run follows the events until interrupted: one line each, as they come.
func (c *tailCmd) Run(e *env) error {
	opt := client.TailOptions{Since: c.Since, All: c.All, LastPerSubject: c.Last}
	if len(c.Exclude) > 0 {
		if c.Actions {
			return model.Errorf(model.CodeBadRequest, "Leave --exclude out with --actions: it chooses events.", "--exclude with --actions")
		}
		kinds, err := client.ParseEventKinds(c.Exclude)
		if err != nil {
			return err
		}
		opt.Exclude = kinds
	}
	app, typ, _ := strings.Cut(c.Filter, ".")
	if app != "*" {
		opt.App = app
	}
	if typ != "*" {
		opt.Type = typ
	}
	if c.Host == "*" {
		return c.everyHost(e, opt)
	}
	client, closeConn, err := c.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	if c.Actions {
		return c.tailActions(e, client, opt)
	}
	events, err := client.Tail(e.ctx, opt)
	if err != nil {
		return err
	}
	p := e.printer(c.JSON)
	for env := range events {
		if err := p.event(&env); err != nil {
			return err
		}
	}
	return nil
}

// everyHost follows the events (or action records) of every host discovered, merged in time
// order; a line on a terminal starts with its host.
func (c *tailCmd) everyHost(e *env, opt client.TailOptions) error {
	clients, closeConn, err := c.fleet(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	p := e.printer(c.JSON)
	p.hosts = true
	if c.Actions {
		records, err := client.TailFleetActions(e.ctx, clients, opt)
		if err != nil {
			return err
		}
		for r := range records {
			if err := p.record(&r); err != nil {
				return err
			}
		}
		return nil
	}
	events, err := client.TailFleet(e.ctx, clients, opt)
	if err != nil {
		return err
	}
	for env := range events {
		if err := p.event(&env); err != nil {
			return err
		}
	}
	return nil
}
