package sim

import (
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"
)

// app is one running (or exited) instance of a simulated app.
type app struct {
	spec    AppSpec
	pid     int
	launch  int // the desktop's launch counter: part of every ref and the app's Instance
	dead    bool
	windows []*node // top-level windows, bottom to top
	byID    map[string]*node
	focus   *node
	// allSelected is the focused text element while all its text is selected (cmd+a).
	allSelected *node
	// focusedWindow is the key window: a top-level window, never a sheet.
	focusedWindow *node
	faults        []*Fault
	// hang is non-nil while the app does not answer; closing it lets blocked calls through.
	hang      chan struct{}
	reactions map[string][]Reaction // by element id
	// webAX is the app's web accessibility switch (AXManualAccessibility on the app element).
	webAX bool
}

func newApp(spec AppSpec, launch int) *app {
	a := &app{spec: spec, pid: spec.PID, launch: launch, byID: map[string]*node{}, reactions: map[string][]Reaction{}, webAX: spec.WebAccessibility}
	for _, s := range expandRepeats(spec.Windows) {
		a.windows = append(a.windows, a.build(s, nil, func(n *node) {
			if a.focus == nil {
				a.focus = n
			}
		}))
	}
	if len(a.windows) > 0 {
		a.focusedWindow = a.windows[len(a.windows)-1]
	}
	if a.focus != nil {
		a.focusedWindow = a.focus.top()
	}
	for _, r := range spec.Reactions {
		a.reactions[r.On.Element] = append(a.reactions[r.On.Element], r)
	}
	return a
}

// build creates the subtree of s under parent and indexes it; focused is called for each node
// the spec marks focused.
func (a *app) build(s NodeSpec, parent *node, focused func(*node)) *node {
	n := newNode(s, parent)
	a.byID[n.id] = n
	if s.Focused {
		focused(n)
	}
	for _, c := range expandRepeats(s.Children) {
		n.children = append(n.children, a.build(c, n, focused))
	}
	return n
}

// ref is the handle of n: "<pid>.<launch>/<id>", so a handle from an earlier instance of the
// app never reaches the new one.
func (a *app) ref(n *node) model.NodeRef {
	return model.NodeRef(strconv.Itoa(a.pid) + "." + strconv.Itoa(a.launch) + "/" + n.id)
}

// info is the app as Apps lists it.
func (a *app) info() model.App {
	return model.App{PID: a.pid, Name: a.spec.Name, ID: a.spec.BundleID, Toolkit: "AppKit", Instance: a.instance()}
}

// instance names this instance of the app: its launch.
func (a *app) instance() string { return strconv.Itoa(a.launch) }

func (a *app) appRef() model.AppRef {
	return model.AppRef{Name: a.spec.Name, PID: a.pid, ID: a.spec.BundleID}
}

// parseRef splits a handle into pid, launch and node id.
func parseRef(ref model.NodeRef) (pid, launch int, id string, err error) {
	head, id, ok := strings.Cut(string(ref), "/")
	p, l, ok2 := strings.Cut(head, ".")
	pid, errPID := strconv.Atoi(p)
	launch, errLaunch := strconv.Atoi(l)
	if !ok || !ok2 || id == "" || errPID != nil || errLaunch != nil {
		return 0, 0, "", model.Errorf(model.CodeBadRequest, "Use a handle the backend returned (pid.launch/id).",
			"%q is not a simulated element handle", ref)
	}
	return pid, launch, id, nil
}

// read returns n as the backend reports it.
func (a *app) read(n *node) model.Node {
	attrs := n.attributes(n == a.focus)
	attrs.Children = make([]model.NodeRef, len(n.children))
	for i, c := range n.children {
		attrs.Children[i] = a.ref(c)
	}
	node := attrs.Node(a.ref(n))
	if n.parent != nil {
		node.Parent = a.ref(n.parent)
	}
	return node
}
