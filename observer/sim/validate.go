package sim

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/ax"
)

// Bounds that keep a fixture, or a fuzzed one, from exhausting memory.
const (
	maxRepeat = 10_000
	maxNodes  = 100_000
	maxErrors = 20
)

// checker collects a fixture's problems, each with the file, the JSON path and the node id.
type checker struct {
	file  string
	errs  []error
	nodes int
}

func (c *checker) fail(path, format string, args ...any) {
	if len(c.errs) < maxErrors {
		c.errs = append(c.errs, fmt.Errorf("%s: %s: %s", c.file, path, fmt.Sprintf(format, args...)))
	}
}

func (c *checker) err() error { return errors.Join(c.errs...) }

func (s *DesktopSpec) validate(file string) error {
	c := &checker{file: file}
	if s.Apps == nil {
		c.fail("apps", "missing: a desktop lists its apps")
	}
	if s.LatencyMS < 0 {
		c.fail("latency_ms", "must not be negative")
	}
	pids := map[int]string{}
	for i := range s.Apps {
		path := fmt.Sprintf("apps[%d]", i)
		c.app(path, &s.Apps[i])
		if first, dup := pids[s.Apps[i].PID]; dup {
			c.fail(path+".pid", "pid %d is taken by %s", s.Apps[i].PID, first)
		}
		pids[s.Apps[i].PID] = path
	}
	return c.err()
}

// appIndex is what an app's windows and the subtrees its effects add define, for checking
// references.
type appIndex struct {
	tree    map[string]string   // id -> path, in the app's windows
	specs   map[string]NodeSpec // id -> spec, in the windows and in added subtrees
	focused string
	// live is the running app whose elements count as its windows': read in place, not copied,
	// so that a control on a big app costs what the change costs.
	live *app
}

func (x *appIndex) known(id string) bool {
	_, ok := x.specs[id]
	return ok || x.live != nil && x.live.byID[id] != nil
}

func (x *appIndex) roleOf(id string) string {
	if s, ok := x.specs[id]; ok {
		return s.Role
	}
	if x.live != nil && x.live.byID[id] != nil {
		return x.live.byID[id].role
	}
	return ""
}

// inWindows reports where id was first seen in the app's windows.
func (x *appIndex) inWindows(id string) (string, bool) {
	if path, ok := x.tree[id]; ok {
		return path, true
	}
	if x.live != nil && x.live.byID[id] != nil {
		return "the live tree", true
	}
	return "", false
}

// index is the live tree of a, for checking what Go controls add to it.
func (a *app) index() *appIndex {
	return &appIndex{tree: map[string]string{}, specs: map[string]NodeSpec{}, live: a}
}

func (c *checker) app(path string, a *AppSpec) {
	if a.Name == "" {
		c.fail(path+".name", "missing")
	}
	if a.PID <= 0 {
		c.fail(path+".pid", "must be a positive process id, not %d", a.PID)
	}
	x := &appIndex{tree: map[string]string{}, specs: map[string]NodeSpec{}}
	for i, w := range a.Windows {
		wp := fmt.Sprintf("%s.windows[%d]", path, i)
		if w.Role != "AXWindow" {
			c.fail(wp, "a top-level element must be an AXWindow, not %q (a sheet belongs inside its window)", w.Role)
		}
		c.tree(wp, w, "", x.tree, x, false)
	}
	c.eachEffect(path, a, func(ep string, e Effect) {
		if e.Add != nil {
			c.tree(ep+".add", *e.Add, x.roleOf(e.To), map[string]string{}, x, true)
		}
	})
	c.eachEffect(path, a, func(ep string, e Effect) { c.effect(ep, e, x) })
	for i, r := range a.Reactions {
		c.reaction(fmt.Sprintf("%s.reactions[%d]", path, i), r, x)
	}
	names := map[string]bool{}
	for i, s := range a.Scripts {
		sp := fmt.Sprintf("%s.scripts[%d]", path, i)
		if s.Name == "" || names[s.Name] {
			c.fail(sp+".name", "a script needs a name unique in its app, not %q", s.Name)
		}
		names[s.Name] = true
		c.script(sp, s)
	}
	for i, f := range a.Faults {
		c.fault(fmt.Sprintf("%s.faults[%d]", path, i), f, x)
	}
}

// eachEffect calls fn with every effect of a's reactions and scripts and its path.
func (c *checker) eachEffect(path string, a *AppSpec, fn func(string, Effect)) {
	for i, r := range a.Reactions {
		for k, e := range r.Do {
			fn(fmt.Sprintf("%s.reactions[%d].do[%d]", path, i, k), e)
		}
	}
	for i, s := range a.Scripts {
		for j, st := range s.Steps {
			for k, e := range st.Do {
				fn(fmt.Sprintf("%s.scripts[%d].steps[%d].do[%d]", path, i, j, k), e)
			}
		}
	}
}

// tree checks a node and its subtree, expanding repeats; ids records where each id was first
// seen: x.tree for the app's windows, a map of its own for each subtree an effect adds.
func (c *checker) tree(path string, s NodeSpec, parentRole string, ids map[string]string, x *appIndex, added bool) {
	if r := s.Repeat; r != nil {
		switch {
		case r.Count < 1 || r.Count > maxRepeat:
			c.fail(path+".repeat.count", "must be 1 to %d, not %d", maxRepeat, r.Count)
		case !strings.Contains(s.ID, "%d"):
			c.fail(path+".id", "a repeated node needs %%d in its id so that its copies differ, not %q", s.ID)
		case hasRepeat(s.Children):
			c.fail(path, "a repeat inside a repeated node is not supported")
		case c.nodes+r.Count*size(s) > maxNodes:
			c.fail(path+".repeat.count", "the desktop would exceed %d elements", maxNodes)
		default:
			for k, inst := range s.instances() {
				c.node(fmt.Sprintf("%s(copy %d)", path, k+1), inst, parentRole, ids, x, added)
			}
		}
		return
	}
	c.node(path, s, parentRole, ids, x, added)
}

func (c *checker) node(path string, s NodeSpec, parentRole string, ids map[string]string, x *appIndex, added bool) {
	c.nodes++
	if c.nodes > maxNodes {
		if c.nodes == maxNodes+1 {
			c.fail(path, "the desktop exceeds %d elements", maxNodes)
		}
		return
	}
	at := path
	if s.ID != "" {
		at = fmt.Sprintf("%s (id %q)", path, s.ID)
	}
	if s.ID == "" {
		c.fail(path+".id", "missing: every element needs an id unique in its app")
	} else if first, dup := ids[s.ID]; dup {
		c.fail(at, "duplicate id (first at %s)", first)
	} else if first, dup := x.inWindows(s.ID); added && dup {
		c.fail(at, "an added element cannot reuse the id of an element in the app's windows (%s)", first)
	}
	ids[s.ID] = path
	x.specs[s.ID] = s
	switch {
	case s.Role == "":
		c.fail(at, "missing role")
	case !ax.KnownRole(s.Role):
		c.fail(at, "unknown AX role %q", s.Role)
	case s.Role == "AXSheet" && parentRole != "AXWindow":
		c.fail(at, "an AXSheet must be a child of an AXWindow")
	case s.Role == "AXWindow" && parentRole != "":
		c.fail(at, "an AXWindow is top-level: open one with an add effect without \"to\"")
	}
	if len(s.Frame) != 0 && len(s.Frame) != 4 {
		c.fail(at+".frame", "must be [x, y, w, h], not %d numbers", len(s.Frame))
	} else if len(s.Frame) == 4 && (s.Frame[2] < 0 || s.Frame[3] < 0) {
		c.fail(at+".frame", "width and height must not be negative")
	}
	if s.Min != nil && s.Max != nil && *s.Min > *s.Max {
		c.fail(at, "min %v is above max %v", *s.Min, *s.Max)
	}
	if s.Focused && !added {
		if x.focused != "" {
			c.fail(at+".focused", "only one element of an app has focus, and %q has it", x.focused)
		}
		x.focused = s.ID
	}
	for _, a := range s.Actions {
		if !strings.HasPrefix(a, "AX") {
			c.fail(at+".actions", "%q is not an AX action name", a)
		}
	}
	for _, a := range s.Settable {
		if !slices.Contains(settableAttributes, a) {
			c.fail(at+".settable", "the simulator cannot set %q (it sets %s)", a, strings.Join(settableAttributes, ", "))
		}
	}
	for i, ch := range s.Children {
		c.tree(fmt.Sprintf("%s.children[%d]", path, i), ch, s.Role, ids, x, added)
	}
}

func hasRepeat(specs []NodeSpec) bool {
	return slices.ContainsFunc(specs, func(s NodeSpec) bool { return s.Repeat != nil || hasRepeat(s.Children) })
}

// size counts the nodes of s's subtree, one copy of each repeat.
func size(s NodeSpec) int {
	n := 1
	for _, c := range s.Children {
		n += size(c)
	}
	return n
}

func (c *checker) reaction(path string, r Reaction, x *appIndex) {
	s, ok := x.specs[r.On.Element]
	switch {
	case !ok:
		c.fail(path+".on.element", "unknown element %q", r.On.Element)
	case (r.On.Action == "") == (r.On.Set == ""):
		c.fail(path+".on", "give either action or set")
	case r.On.Action != "":
		if offers := actionsOf(s); !slices.Contains(offers, r.On.Action) {
			c.fail(path+".on.action", "element %q does not offer %s (it offers [%s])", s.ID, r.On.Action, strings.Join(offers, " "))
		}
	default:
		if can := settableOf(s); !slices.Contains(can, r.On.Set) {
			c.fail(path+".on.set", "element %q cannot set %s (settable: [%s])", s.ID, r.On.Set, strings.Join(can, " "))
		}
	}
	if r.AfterMS < 0 {
		c.fail(path+".after_ms", "must not be negative")
	}
	if len(r.Do) == 0 {
		c.fail(path+".do", "a reaction needs at least one effect")
	}
}

// actionsOf is what a node offers; AXScrollToVisible is admitted wherever the node ends up.
func actionsOf(s NodeSpec) []string {
	if s.Actions != nil {
		return s.Actions
	}
	return defaultActions(s.Role, true)
}

func settableOf(s NodeSpec) []string {
	if s.Settable != nil {
		return s.Settable
	}
	return defaultSettable(s.Role, s.Expanded != nil)
}

func (c *checker) effect(path string, e Effect, x *appIndex) {
	verbs := 0
	for _, given := range []bool{e.Add != nil, e.Remove != "", e.Set != "", e.Focus != "", e.Move != "", e.Notify != ""} {
		if given {
			verbs++
		}
	}
	if verbs != 1 {
		c.fail(path, "an effect does exactly one of add, remove, set, focus, move and notify")
		return
	}
	switch {
	case e.Add == nil && e.To != "":
		c.fail(path+".to", "belongs to add")
	case e.Set == "" && (e.Title != nil || e.Value != nil || e.Enabled != nil || e.Selected != nil || e.Expanded != nil):
		c.fail(path, "title, value, enabled, selected and expanded belong to set")
	case e.Move == "" && (e.DX != 0 || e.DY != 0):
		c.fail(path, "dx and dy belong to move")
	case e.Notify == "" && (e.Element != "" || e.Text != ""):
		c.fail(path, "element and text belong to notify")
	case e.Add != nil && e.To == "" && e.Add.Role != "AXWindow":
		c.fail(path+".add", "without \"to\", add opens a window: the node must be an AXWindow, not %q", e.Add.Role)
	case e.Add != nil && e.To != "" && !x.known(e.To):
		c.fail(path+".to", "unknown element %q", e.To)
	case e.Set != "" && e.Title == nil && e.Value == nil && e.Enabled == nil && e.Selected == nil && e.Expanded == nil:
		c.fail(path, "set changes nothing: give title, value, enabled, selected or expanded")
	case e.Notify != "" && !notifiable(e.Notify):
		c.fail(path+".notify", "unknown AX notification %q", e.Notify)
	case e.target() != "" && !x.known(e.target()):
		c.fail(path, "unknown element %q", e.target())
	}
}

func notifiable(name string) bool {
	_, ok := ax.NormaliseNotification(name)
	return ok && strings.HasPrefix(name, "AX")
}

func (c *checker) script(path string, s Script) {
	if s.LoopMS < 0 {
		c.fail(path+".loop_ms", "must not be negative")
	}
	if len(s.Steps) == 0 {
		c.fail(path+".steps", "a script needs at least one step")
	}
	for i, st := range s.Steps {
		sp := fmt.Sprintf("%s.steps[%d]", path, i)
		if st.AtMS < 0 || (s.LoopMS > 0 && st.AtMS >= s.LoopMS) {
			c.fail(sp+".at_ms", "must be from 0 to below loop_ms, not %d", st.AtMS)
		}
		if len(st.Do) == 0 {
			c.fail(sp+".do", "a step needs at least one effect")
		}
	}
}

func (c *checker) fault(path string, f Fault, x *appIndex) {
	switch f.Kind {
	case FaultTransient, FaultLying, FaultNoop, FaultSlow, FaultHang, FaultDie:
	default:
		c.fail(path+".kind", "unknown fault %q (transient, lying, noop, slow, hang, die)", f.Kind)
	}
	if f.Element != "" && !x.known(f.Element) {
		c.fail(path+".element", "unknown element %q", f.Element)
	}
	if f.Count < 0 || f.LatencyMS < 0 || f.AfterMS < 0 {
		c.fail(path, "count, latency_ms and after_ms must not be negative")
	}
	if f.Kind == FaultSlow && f.LatencyMS == 0 {
		c.fail(path+".latency_ms", "a slow app needs latency_ms")
	}
	if f.Code != "" && (f.Kind != FaultLying || (f.Code != model.CodeTransient && f.Code != model.CodeActionFailed)) {
		c.fail(path+".code", "only a lying fault has a code: TRANSIENT or ACTION_FAILED")
	}
}
