package sim

import (
	"encoding/json"
	"time"

	"github.com/axbus/axbus/model"
)

// The Go controls: tests change the desktop directly, as the app itself would, with the
// notifications macOS posts. They bypass faults and latency.

// Ref is the handle of element id in the running instance of app pid ("" when there is none).
func (d *Desktop) Ref(pid int, id string) model.NodeRef {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, n, err := d.element(pid, id)
	if err != nil {
		return ""
	}
	return a.ref(n)
}

// Peek reads element id of app pid without latency or faults.
func (d *Desktop) Peek(pid int, id string) (model.Node, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, n, err := d.element(pid, id)
	if err != nil {
		return model.Node{}, false
	}
	return a.read(n), true
}

// SetValue sets an element's value (AXValueChanged).
func (d *Desktop) SetValue(pid int, id, value string) error {
	return d.control(pid, id, func(a *app, n *node) { d.setValue(a, n, value) })
}

// SetTitle sets an element's title (AXTitleChanged).
func (d *Desktop) SetTitle(pid int, id, title string) error {
	return d.control(pid, id, func(a *app, n *node) { d.setTitle(a, n, title) })
}

// SetEnabled enables or disables an element. AppKit posts no notification for it.
func (d *Desktop) SetEnabled(pid int, id string, on bool) error {
	return d.control(pid, id, func(_ *app, n *node) { n.enabled = on })
}

// SetHidden hides a window or shows it again, as NSWindow's orderOut: and orderFront: do: a
// hidden window is not among its app's windows and takes no input, and its elements still
// answer reads and actions. AppKit posts no notification for it.
func (d *Desktop) SetHidden(pid int, windowID string, hidden bool) error {
	return d.control(pid, windowID, func(_ *app, n *node) { n.hidden = hidden })
}

// SetFocus gives an element keyboard focus (AXFocusedUIElementChanged).
func (d *Desktop) SetFocus(pid int, id string) error {
	return d.control(pid, id, func(a *app, n *node) { d.focus(a, n) })
}

// Move moves an element and its subtree by (dx, dy) (AXMoved, or AXWindowMoved for a window).
func (d *Desktop) Move(pid int, id string, dx, dy float64) error {
	return d.control(pid, id, func(a *app, n *node) { d.move(a, n, dx, dy) })
}

// RemoveNode removes an element and its subtree (AXUIElementDestroyed); a window closes.
func (d *Desktop) RemoveNode(pid int, id string) error {
	return d.control(pid, id, func(a *app, n *node) { d.remove(a, n) })
}

// AddNode adds a subtree under parentID, or opens it as a window when parentID is empty, with
// the notification an add effect posts.
func (d *Desktop) AddNode(pid int, parentID string, spec NodeSpec) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, err := d.live(pid)
	if err != nil {
		return err
	}
	if parentID != "" && a.byID[parentID] == nil {
		return errElementNotFound(a, parentID)
	}
	e := Effect{Add: &spec, To: parentID}
	x := a.index()
	c := &checker{file: "AddNode"}
	c.tree("node", spec, x.roleOf(parentID), map[string]string{}, x, true)
	c.effect("node", e, x)
	if err := c.err(); err != nil {
		return model.Errorf(model.CodeBadRequest, "Fix the node spec.", "%v", err).Wrap(err)
	}
	d.apply(a, e)
	return nil
}

// Play plays the script name once in every running app that has it.
func (d *Desktop) Play(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	played := false
	for _, a := range d.apps {
		for _, s := range a.spec.Scripts {
			if s.Name == name && !a.dead {
				d.play(a, s)
				played = true
			}
		}
	}
	if !played {
		return model.Errorf(model.CodeBadRequest, "Name a script of the fixture's running apps.", "no running app has a script %q", name)
	}
	return nil
}

// Kill ends app pid now: its windows vanish, its calls get APP_GONE, app_terminated is posted.
func (d *Desktop) Kill(pid int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, err := d.live(pid)
	if err != nil {
		return err
	}
	d.kill(a)
	return nil
}

// Relaunch restarts app pid at the same pid as a new instance, from its spec: a new Instance,
// fresh handles (those of the old instance get APP_GONE), app_launched posted. It ends the app
// first when it runs.
func (d *Desktop) Relaunch(pid int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.appByPID(pid)
	if a == nil {
		return errAppNotFound(pid)
	}
	if !a.dead {
		d.kill(a)
	}
	d.start(a.spec)
	return nil
}

// Launch starts a new app from spec and returns its pid. PID 0 takes the next free pid; a pid
// whose app has exited is reused.
func (d *Desktop) Launch(spec AppSpec) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if spec.PID == 0 {
		for _, a := range d.apps {
			spec.PID = max(spec.PID, a.pid)
		}
		spec.PID++
	}
	if a := d.appByPID(spec.PID); a != nil && !a.dead {
		return 0, model.Errorf(model.CodeBadRequest, "Launch at another pid, or 0 for the next free one.",
			"pid %d is %s, which is running", spec.PID, a.spec.Name)
	}
	c := &checker{file: "launch"}
	c.app("app", &spec)
	if err := c.err(); err != nil {
		return 0, model.Errorf(model.CodeBadRequest, "Fix the app spec.", "%v", err).Wrap(err)
	}
	d.start(spec)
	return spec.PID, nil
}

// AppSpec returns a copy of the spec of the first app named name, to launch it again.
func (d *Desktop) AppSpec(name string) (AppSpec, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range d.apps {
		if a.spec.Name == name {
			var out AppSpec
			b, err := json.Marshal(a.spec) // a deep copy, so the caller may change it freely
			return out, err == nil && json.Unmarshal(b, &out) == nil
		}
	}
	return AppSpec{}, false
}

// InjectFault arms a fault on app pid; a die fault ends it AfterMS later.
func (d *Desktop) InjectFault(pid int, f Fault) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, err := d.live(pid)
	if err != nil {
		return err
	}
	c := &checker{file: "fault"}
	c.fault("fault", f, a.index())
	if err := c.err(); err != nil {
		return model.Errorf(model.CodeBadRequest, "Fix the fault.", "%v", err).Wrap(err)
	}
	d.inject(a, f)
	return nil
}

// ClearFaults removes app pid's faults; calls blocked by a hang go through.
func (d *Desktop) ClearFaults(pid int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, err := d.live(pid)
	if err != nil {
		return err
	}
	a.clearFaults()
	return nil
}

// SetLatency sets the cost of one round trip to any app.
func (d *Desktop) SetLatency(l time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.latency = l
}

// control runs change on element id of app pid.
func (d *Desktop) control(pid int, id string, change func(*app, *node)) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, n, err := d.element(pid, id)
	if err != nil {
		return err
	}
	change(a, n)
	return nil
}

// element is node id of the running app pid; callers hold d.mu.
func (d *Desktop) element(pid int, id string) (*app, *node, error) {
	a, err := d.live(pid)
	if err != nil {
		return nil, nil, err
	}
	n := a.byID[id]
	if n == nil {
		return nil, nil, errElementNotFound(a, id)
	}
	return a, n, nil
}
