package sim

import (
	"strings"
	"time"
)

// react schedules a's reactions to trig on n.
func (d *Desktop) react(a *app, n *node, trig Trigger) {
	for _, r := range a.reactions[n.id] {
		if r.On.Action == trig.Action && r.On.Set == trig.Set {
			d.schedule(a, ms(r.AfterMS), r.Do)
		}
	}
}

// schedule applies effects to a after delay (at once when it is zero), unless a has exited by
// then; callers hold d.mu.
func (d *Desktop) schedule(a *app, delay time.Duration, effects []Effect) {
	run := func() {
		if a.dead {
			return
		}
		for _, e := range effects {
			d.apply(a, e)
		}
	}
	if delay <= 0 {
		run()
		return
	}
	d.after(delay, run)
}

// apply carries out one effect. An element that is gone makes it do nothing, as does adding an
// id that exists: an app's reaction to a second press finds its work done.
func (d *Desktop) apply(a *app, e Effect) {
	if e.Add != nil {
		var parent *node
		if e.To != "" {
			if parent = a.byID[e.To]; parent == nil {
				return
			}
		}
		for _, s := range e.Add.instances() {
			if a.clash(s) == "" {
				d.add(a, parent, s)
			}
		}
		return
	}
	id := e.target()
	n := a.byID[id]
	if n == nil && id != "" {
		return
	}
	switch {
	case e.Remove != "":
		d.remove(a, n)
	case e.Set != "":
		d.set(a, n, e)
	case e.Focus != "":
		d.focus(a, n)
	case e.Move != "":
		d.move(a, n, e.DX, e.DY)
	case e.Notify != "":
		var detail map[string]any
		if e.Text != "" {
			detail = map[string]any{"announcement": e.Text}
		}
		d.emit(a, e.Notify, n, detail)
	}
}

// set changes the fields an effect names.
func (d *Desktop) set(a *app, n *node, e Effect) {
	if e.Title != nil {
		d.setTitle(a, n, d.stamp(*e.Title))
	}
	if e.Value != nil {
		d.setValue(a, n, d.stamp(string(*e.Value)))
	}
	if e.Enabled != nil {
		n.enabled = *e.Enabled // AppKit posts nothing for it: watchers must poll
	}
	if e.Selected != nil {
		d.setSelected(a, n, *e.Selected)
	}
	if e.Expanded != nil {
		d.setExpanded(a, n, *e.Expanded)
	}
}

// stamp replaces "{time}" with the clock's time of day.
func (d *Desktop) stamp(s string) string {
	if !strings.Contains(s, "{time}") {
		return s
	}
	return strings.ReplaceAll(s, "{time}", d.clock.Now().Format("15:04:05"))
}

// target is the id of the element the effect acts on; "" for an add or an app notification.
func (e Effect) target() string {
	for _, id := range []string{e.Remove, e.Set, e.Focus, e.Move, e.Element} {
		if id != "" {
			return id
		}
	}
	return ""
}
