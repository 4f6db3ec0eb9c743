package flows

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/commands"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/text"
	"github.com/axbus/axbus/waiters/condition"
)

// person makes a recording's steps of what a person does: a click on an element (check or
// uncheck for a check box, focus for a text field, click for the rest, with the expect its
// effects give), the characters typed into the focused element as one type step (a password
// field's only as ${secret:name}: its keystrokes are not kept), other keys and shortcuts as key
// steps. Input is handled in order on one goroutine; a click waits for its effects to settle.
type person struct {
	rec *recording
	o   *observer.Observer
	w   observer.InputWatcher

	in        chan heard
	done      chan struct{}
	stopWatch func()
	unsub     observer.Token

	mu    sync.Mutex
	focus focused // the element with the keyboard focus, from focus_changed
	// typing is what is being typed into one element, flushed as a step by a click, another
	// key, a focus elsewhere or the end.
	typing *typed
}

type focused struct {
	pid    int
	ref    model.NodeRef
	window string // its window's id
	secure bool
	name   string
}

// heard is one input as it was when it came: a key with the focus then, or a click with the
// element under the pointer then, read at once (the app may change before its step is made).
type heard struct {
	in    observer.PersonInput
	focus focused
	click *clicked
}

type clicked struct {
	app    model.App
	snap   *observer.Snapshot
	index  int
	before string
	after  *collector
}

type typed struct {
	at   focused
	text []rune // never a secure field's
}

// settleFor is how long a person's click is watched for its effects.
const settleFor = api.EffectSettle

func startPerson(rec *recording, o *observer.Observer) (*person, error) {
	w, ok := o.Backend().(observer.InputWatcher)
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported, "Record an agent's actions; this desktop's backend cannot hear a person's input.",
			"%s cannot record a person's mouse and keyboard", o.Backend().Platform())
	}
	p := &person{rec: rec, o: o, w: w, in: make(chan heard, 1024), done: make(chan struct{})}
	tok, err := o.Subscribe(p.see)
	if err != nil {
		return nil, err
	}
	p.unsub = tok
	if p.stopWatch, err = w.WatchInput(p.hear); err != nil {
		o.Unsubscribe(tok)
		return nil, err
	}
	go p.loop()
	return p, nil
}

// stop ends the watch, handles what input is left, and flushes what was being typed.
func (p *person) stop() {
	p.stopWatch()
	close(p.in)
	<-p.done
	p.o.Unsubscribe(p.unsub)
}

func (p *person) see(ev model.Event) {
	if ev.Type != model.EventFocusChanged || ev.Ref == "" {
		return
	}
	f := focused{pid: ev.App.PID, ref: ev.Ref, secure: ev.Secure}
	if ev.Window != nil {
		f.window = ev.Window.ID
	}
	if ev.Element != nil {
		f.name = ev.Element.Name
	}
	p.mu.Lock()
	p.focus = f
	p.mu.Unlock()
}

// hear takes an input as it comes: a key with the focus now, a click with what is under the
// pointer now and the watch of what follows it started.
func (p *person) hear(in observer.PersonInput) {
	h := heard{in: in}
	switch {
	case in.Key:
		p.mu.Lock()
		h.focus = p.focus
		p.mu.Unlock()
	case in.Button == 1:
		ctx, cancel := context.WithTimeout(context.Background(), model.WholeBudget().Deadline)
		defer cancel()
		app, win, ref, err := p.w.ElementAt(ctx, in.X, in.Y)
		if err != nil {
			return
		}
		c := &clicked{app: app, after: collect(p.o, app.PID)}
		var ok bool
		if c.snap, c.index, ok = p.walkTo(ctx, app, win.ID, ref); !ok {
			c.after.stop()
			return
		}
		c.before, _, _, _ = text.Assemble(c.snap.Walk, 0, text.MaxReadBytes)
		h.click = c
	default:
		return
	}
	select {
	case p.in <- h:
	default: // a person does not type 1,024 keys ahead of their app
	}
}

func (p *person) loop() {
	defer close(p.done)
	for h := range p.in {
		ctx, cancel := context.WithTimeout(context.Background(), model.WholeBudget().Deadline)
		if h.click != nil {
			p.flush(ctx)
			p.click(ctx, h.click)
		} else {
			p.key(ctx, h.in, h.focus)
		}
		cancel()
	}
	ctx, cancel := context.WithTimeout(context.Background(), model.WholeBudget().Deadline)
	defer cancel()
	p.flush(ctx)
}

// key adds a character to what is being typed, or makes a key step of a key that types none.
func (p *person) key(ctx context.Context, in observer.PersonInput, f focused) {
	switch {
	case in.Text != "":
		if p.typing != nil && p.typing.at.ref != f.ref {
			p.flush(ctx)
		}
		if p.typing == nil {
			p.typing = &typed{at: f}
		}
		if !f.secure {
			p.typing.text = append(p.typing.text, []rune(in.Text)...)
		}
		return
	case in.Name == "BackSpace" && p.typing != nil && !p.typing.at.secure && len(p.typing.text) > 0:
		p.typing.text = p.typing.text[:len(p.typing.text)-1]
		return
	}
	p.flush(ctx)
	app, ok := p.appOf(ctx, f.pid)
	if !ok {
		return
	}
	mods := slices.DeleteFunc(slices.Clone(in.Mods), func(m string) bool { return m == "shift" && len(in.Name) == 1 })
	p.rec.add(&api.FlowStep{Action: "key", App: app.Name, Value: strings.Join(append(mods, in.Name), "+"), Policy: api.PolicyPhysical})
}

// flush makes a type step of what was being typed.
func (p *person) flush(ctx context.Context) {
	t := p.typing
	p.typing = nil
	if t == nil || t.at.ref == "" {
		return
	}
	app, ok := p.appOf(ctx, t.at.pid)
	if !ok {
		return
	}
	snap, index, ok := p.walkTo(ctx, app, t.at.window, t.at.ref)
	if !ok {
		return
	}
	s := &api.FlowStep{Action: "type", App: app.Name, Locator: locatorOf(snap, index)}
	if t.at.secure { // typed as the person did: a toolkit may refuse a password field's text any other way
		s.Value, s.Policy = secretParam(t.at.name), api.PolicyPhysical
	} else {
		s.Value = string(t.text)
		if n := p.o.Backend().Read(ctx, []model.NodeRef{t.at.ref})[0]; n.Err == nil && n.HasValue && n.Value != "" {
			s.Expect = "value:" + strconv.Quote(n.Value)
		}
	}
	p.rec.add(s)
}

// click makes the step of a click on the element that was under the pointer, with what
// followed it.
func (p *person) click(ctx context.Context, c *clicked) {
	events := c.after.wait()
	node := c.snap.Walk.Nodes[c.index]
	s := &api.FlowStep{Action: "click", App: c.app.Name, Locator: locatorOf(c.snap, c.index)}
	after := p.o.Backend().Read(ctx, []model.NodeRef{node.Ref})[0]
	switch node.Role {
	case model.RoleCheckbox, model.RoleSwitch, model.RoleToggleButton:
		if after.Err == nil && after.States.Has(model.StateChecked) {
			s.Action, s.Expect = "check", "state:checked"
		} else if after.Err == nil {
			s.Action, s.Expect = "uncheck", "state!=checked"
		}
	case model.RoleTextField, model.RoleTextArea, model.RolePassword, model.RoleSearchField:
		s.Action = "focus"
	default:
		reply := &api.ActionReply{App: c.app.Ref()}
		if after.Err == nil {
			reply.PostState = &api.PostState{States: after.States}
		}
		s.Expect = expectOf(ctx, p.o, commands.Done{Action: "click", Reply: reply, Snapshot: c.snap, Index: c.index, Events: events, Before: c.before})
	}
	p.rec.add(s)
}

// collector gathers the events of one app from its start for the settle window.
type collector struct {
	o     *observer.Observer
	tok   observer.Token
	start time.Time
	mu    sync.Mutex
	got   []model.Event
	once  sync.Once
}

func collect(o *observer.Observer, pid int) *collector {
	c := &collector{o: o, start: time.Now()}
	c.tok, _ = o.Subscribe(func(ev model.Event) {
		if ev.App.PID == pid && !ev.Secure {
			c.mu.Lock()
			c.got = append(c.got, ev)
			c.mu.Unlock()
		}
	})
	return c
}

// wait returns the events once the settle window from its start has passed: its length is what
// is watched, nothing says when an effect is whole.
func (c *collector) wait() []model.Event {
	time.Sleep(time.Until(c.start.Add(settleFor)))
	c.stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got
}

func (c *collector) stop() { c.once.Do(func() { c.o.Unsubscribe(c.tok) }) }

// walkTo reads window (by id; the app's first when not found) of app whole and finds ref in it.
func (p *person) walkTo(ctx context.Context, app model.App, window string, ref model.NodeRef) (*observer.Snapshot, int, bool) {
	_, wins, err := p.o.Windows(ctx, model.AppQuery{PID: app.PID})
	if err != nil || len(wins) == 0 {
		return nil, 0, false
	}
	win := wins[0]
	for _, w := range wins {
		if w.ID == window {
			win = w
		}
	}
	walk := observer.Walk(ctx, p.o.Backend(), win.Ref, observer.WalkOptions{Budget: model.WholeBudget()})
	for i, n := range walk.Nodes {
		if n.Ref == ref {
			return &observer.Snapshot{App: app.Ref(), Window: model.WindowRef{ID: win.ID, Title: win.Title}, Walk: walk}, i, true
		}
	}
	return nil, 0, false
}

func (p *person) appOf(ctx context.Context, pid int) (model.App, bool) {
	app, err := p.o.FindApp(ctx, model.AppQuery{PID: pid})
	return app, err == nil && pid != 0
}

// locatorOf is the unique locator of the element at index of snap's walk.
func locatorOf(snap *observer.Snapshot, index int) string {
	win := model.Window{ID: snap.Window.ID, Title: snap.Window.Title}
	if len(snap.Walk.Nodes) > 0 {
		win.Role = snap.Walk.Nodes[0].Role
	}
	if l := condition.UniqueLocator(win, snap.Walk.Nodes, index); l != nil {
		return l.String()
	}
	return ""
}
