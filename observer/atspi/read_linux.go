//go:build linux

package atspi

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/observer"
)

// longList is the child count from which an element's children are kept between reads.
const longList = 32

// maxTextChars caps Text.GetText: a text element's first 100,000 characters are read.
const maxTextChars = 100_000

// The coordinate types of Component.GetExtents.
const (
	coordScreen uint32 = 0
	coordWindow uint32 = 1
)

// relationLabelledBy is ATSPI_RELATION_LABELLED_BY.
const relationLabelledBy = 2

// caller issues D-Bus calls for one phase of a read. Pipelined, every call is sent at once and
// wait collects the answers; sequential, each call waits for its answer before the next is sent.
type caller struct {
	b       *Backend
	mu      sync.Mutex
	peers   map[string]bool // the apps called over their peer connections
	ctx     context.Context // the phase's: cancelled when the apps stop answering
	cancel  context.CancelFunc
	timeout time.Duration
	seq     bool
	calls   []*dbus.Call
}

func (c *caller) call(bus, path, method string, args ...any) *dbus.Call {
	obj := c.b.object(bus, path)
	if c.b.peer(bus) != nil {
		c.mu.Lock()
		c.peers[bus] = true
		c.mu.Unlock()
	}
	if c.seq {
		ctx, cancel := context.WithTimeout(c.ctx, c.timeout)
		defer cancel()
		return obj.CallWithContext(ctx, method, 0, args...)
	}
	call := obj.GoWithContext(c.ctx, method, 0, nil, args...)
	c.calls = append(c.calls, call)
	return call
}

func (c *caller) prop(bus, path, iface, name string) *dbus.Call {
	return c.call(bus, path, ifaceProps+".Get", iface, name)
}

// wait collects every call's answer (each call's Done channel receives exactly once). The call
// timeout counts from the last answer: a busy app that answers a long batch one call after the
// other is waited for, an app that stops answering is given up after the timeout, and its
// remaining calls end with the phase's cancellation.
func (c *caller) wait() {
	if len(c.calls) == 0 {
		return
	}
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	for _, call := range c.calls {
		select {
		case <-call.Done:
		case <-timer.C:
			c.cancel()
			<-call.Done
			continue
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(c.timeout)
	}
	c.calls = c.calls[:0]
}

// phase runs fn's calls and waits for them. fn runs on its own goroutine: sending to a frozen
// app's peer connection blocks once its socket is full, and a cancelled phase must still end
// at once, by giving up the peer connections it is blocked on.
func (b *Backend) phase(ctx context.Context, seq bool, fn func(c *caller)) {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &caller{b: b, ctx: pctx, cancel: cancel, timeout: b.cfg.callTimeout, seq: seq, peers: map[string]bool{}}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		fn(c)
	}()
	select {
	case <-sent:
	case <-pctx.Done():
		select {
		case <-sent: // the sends were done: the calls end with the cancellation
		case <-time.After(peerGrace):
			c.mu.Lock() // still sending: blocked on a full socket
			for bus := range c.peers {
				b.stallPeer(bus)
			}
			c.mu.Unlock()
			<-sent
		}
	}
	c.wait()
}

// peerGrace is how long a cancelled phase lets its sends finish before it takes them for
// blocked on an app that stopped reading.
const peerGrace = 20 * time.Millisecond

// readMode says how much of an element a read fetches.
type readMode int

const (
	// modeFull reads everything a walk needs: children, actions, labels, text.
	modeFull readMode = iota
	// modeSummary reads what an event carries: role, name, states, bounds, value.
	modeSummary
	// modeWindow reads what a window listing needs: role, name, states, bounds.
	modeWindow
	// modeText is modeFull with the text of every text element, labels too.
	modeText
)

// full reports whether the mode reads children, actions and labels.
func (m readMode) full() bool { return m == modeFull || m == modeText }

// rd is one element being read.
type rd struct {
	ref       observer.NodeRef
	bus, path string
	app       *appInfo
	known     refInfo
	err       *observer.Error

	cRole, cState, cProps, cIfaces               *dbus.Call
	cExt, cKids, cCount, cValue, cActions, cAttr *dbus.Call
	cRel, cText, cLabel                          *dbus.Call
	cActionNames                                 []*dbus.Call // GetName of each action GetActions left unnamed

	role   uint32
	st     stateSet
	props  map[string]dbus.Variant
	ifaces ifaceSet
	secure bool
	count  int32
	node   observer.Node
}

// Read reads many elements at once, pipelined: the calls of the whole batch are in flight
// together, in three phases (what every element needs; what its interfaces allow; its text).
func (b *Backend) Read(ctx context.Context, refs []observer.NodeRef) []observer.Node {
	return b.read(ctx, refs, modeFull, b.cfg.sequential)
}

// ReadWithText reads like Read and also the text of every text element, labels included, whose
// name Read takes for their text: what the read endpoint needs.
func (b *Backend) ReadWithText(ctx context.Context, refs []observer.NodeRef) []observer.Node {
	return b.read(ctx, refs, modeText, b.cfg.sequential)
}

// SequentialRead reads like Read but one call at a time, each waiting for its answer: the way a
// naive client walks. It exists to measure what pipelining gains.
func (b *Backend) SequentialRead(ctx context.Context, refs []observer.NodeRef) []observer.Node {
	return b.read(ctx, refs, modeFull, true)
}

func (b *Backend) read(ctx context.Context, refs []observer.NodeRef, mode readMode, seq bool) []observer.Node {
	out := make([]observer.Node, len(refs))
	if len(refs) == 0 {
		return out
	}
	if b.isClosed() {
		for i, r := range refs {
			out[i] = observer.Node{Ref: r, Err: errClosed()}
		}
		return out
	}
	items := make([]*rd, len(refs))
	var live []*rd
	buses := map[string]bool{}
	for i, ref := range refs {
		it := &rd{ref: ref}
		items[i] = it
		bus, path, ok := ParseRef(ref)
		if !ok {
			it.err = observer.Errorf(observer.CodeStaleRef, "Inspect again: the handle is not an AT-SPI element of this daemon.",
				"%q is not an AT-SPI element handle", ref)
			continue
		}
		it.bus, it.path = bus, path
		it.known, _ = b.cache.get(ref)
		buses[bus] = true
		live = append(live, it)
	}
	apps := b.ensureApps(ctx, buses)
	for _, it := range live {
		it.app = apps[it.bus]
	}

	// Phase 1: what every element needs.
	b.phase(ctx, seq, func(c *caller) {
		for _, it := range live {
			if ctx.Err() != nil {
				return
			}
			if !it.known.haveRole { // a role does not change; the cache forgets it on accessible-role events
				it.cRole = c.call(it.bus, it.path, ifaceAccessible+".GetRole")
			}
			it.cState = c.call(it.bus, it.path, ifaceAccessible+".GetState")
			it.cProps = c.call(it.bus, it.path, ifaceProps+".GetAll", ifaceAccessible)
			if !it.known.haveIfaces {
				it.cIfaces = c.call(it.bus, it.path, ifaceAccessible+".GetInterfaces")
			} else {
				b.issueEarly(c, it, mode)
			}
		}
	})
	live = b.phase1(ctx, live)
	live = b.cancelled(ctx, live)

	// Phase 2: what the interfaces allow.
	b.phase(ctx, seq, func(c *caller) {
		for _, it := range live {
			if ctx.Err() != nil {
				return
			}
			b.issuePhase2(c, it, mode)
		}
	})
	live = b.phase2(ctx, live, mode)
	live = b.cancelled(ctx, live)

	// Phase 3: text (never before its length is known: GTK3 crashes on GetText(0, -1)) and labels.
	b.phase(ctx, seq, func(c *caller) {
		for _, it := range live {
			if ctx.Err() != nil {
				return
			}
			if it.count > 0 && !b.reuseText(it) {
				it.cText = c.call(it.bus, it.path, ifaceText+".GetText", int32(0), min(it.count, maxTextChars))
			}
			for i, name := range it.known.actions {
				if name == "" && it.cActions != nil && interactive(it.st) { // only on a first read: the names are cached whole
					it.cActionNames = append(it.cActionNames, c.call(it.bus, it.path, ifaceAction+".GetName", int32(i)))
				}
			}
			if it.cRel != nil && it.cRel.Err == nil {
				if lb, lp, ok := labelTarget(it.cRel.Body); ok {
					it.cLabel = c.prop(lb, lp, ifaceAccessible, "Name")
				}
			}
		}
	})
	live = b.cancelled(ctx, live)
	for _, it := range live {
		b.phase3(ctx, it, mode)
	}
	for i, it := range items {
		if it.err != nil {
			out[i] = observer.Node{Ref: it.ref, Err: it.err}
			continue
		}
		out[i] = it.node
	}
	return out
}

// fail records the error of call on it, unless it has one already.
func (b *Backend) fail(ctx context.Context, it *rd, call *dbus.Call, err error) {
	if it.err != nil {
		return
	}
	method := ""
	if call != nil {
		method = call.Method
	}
	if err == nil && call == nil {
		err = ctx.Err()
	}
	it.err = b.callError(ctx, it.bus, it.path, method, err)
	if it.err == nil {
		it.err = b.callError(ctx, it.bus, it.path, method, context.Canceled)
	}
}

// cancelled fails every element still being read once ctx has ended: some of their calls were
// never sent.
func (b *Backend) cancelled(ctx context.Context, live []*rd) []*rd {
	if ctx.Err() == nil {
		return live
	}
	for _, it := range live {
		b.fail(ctx, it, nil, ctx.Err())
	}
	return nil
}

// fatal reports whether an error of a call makes the whole element unreadable (it is gone, its
// app is gone or frozen, the read was cancelled) rather than one attribute unavailable.
func fatal(e *observer.Error) bool {
	switch e.Code {
	case observer.CodeElementNotFound, observer.CodeAppGone, observer.CodeAppNotResponding, observer.CodeTimeout,
		observer.CodeUnavailable:
		return true
	}
	return false
}

func (b *Backend) phase1(ctx context.Context, live []*rd) []*rd {
	next := live[:0:0]
	for _, it := range live {
		if it.cState == nil {
			b.fail(ctx, it, nil, ctx.Err())
			continue
		}
		if it.cRole != nil {
			if it.cRole.Err != nil {
				b.fail(ctx, it, it.cRole, it.cRole.Err)
				continue
			}
			if err := it.cRole.Store(&it.role); err != nil {
				b.fail(ctx, it, it.cRole, err)
				continue
			}
		} else {
			it.role = it.known.role
		}
		var words []uint32
		if it.cState.Err != nil {
			// GetState is the call every element answers: its failure is the element's.
			b.fail(ctx, it, it.cState, it.cState.Err)
			continue
		}
		_ = it.cState.Store(&words)
		it.st = makeStateSet(words)
		if it.st.has(stateDefunct) {
			it.err = observer.Errorf(observer.CodeElementNotFound, suggestionFor(observer.CodeElementNotFound),
				"element %s of %s is defunct (destroyed)", it.path, b.appLabel(it.bus))
			b.cache.forget(it.ref)
			continue
		}
		if it.cProps.Err != nil {
			if e := b.callError(ctx, it.bus, it.path, it.cProps.Method, it.cProps.Err); fatal(e) {
				it.err = e
				continue
			}
		} else {
			_ = it.cProps.Store(&it.props)
		}
		it.ifaces = it.known.ifaces
		if it.cIfaces != nil {
			var names []string
			if it.cIfaces.Err == nil && it.cIfaces.Store(&names) == nil {
				it.ifaces = parseIfaces(names)
			}
		}
		parent := variantRef(it.props["Parent"])
		parentInfo, _ := b.cache.get(parent)
		it.secure = IsSecureRole(it.role) || it.known.secure || (parent != "" && parentInfo.secure)
		b.cache.update(it.ref, func(ri *refInfo) {
			if it.cIfaces != nil && it.cIfaces.Err == nil {
				ri.ifaces, ri.haveIfaces = it.ifaces, true
			}
			ri.role, ri.haveRole = it.role, true
			ri.states, ri.haveStates = it.st, true
			ri.childCount = propInt(it.props, "ChildCount")
			if parent != "" {
				ri.parent = parent
			}
			ri.secure = it.secure
			if a, ok := it.props["Attributes"]; ok {
				if m, ok := a.Value().(map[string]string); ok {
					ri.attrs, ri.haveAttrs = ownedMap(m), true
				}
			}
		})
		if a, ok := it.props["Attributes"]; ok {
			if m, ok := a.Value().(map[string]string); ok {
				it.known.attrs, it.known.haveAttrs = m, true
			}
		}
		next = append(next, it)
	}
	return next
}

// issueEarly sends, with the first phase, the calls of an element already read once that do not
// depend on what the first phase answers: its interfaces and role are known, so its bounds, its
// value and (when it had some) its children can be asked at once. A warm read then takes one
// round of calls fewer per batch.
func (b *Backend) issueEarly(c *caller, it *rd, mode readMode) {
	it.ifaces = it.known.ifaces
	b.issueExtents(c, it)
	if mode == modeWindow || !it.known.haveRole {
		return
	}
	if !it.known.secure && !IsSecureRole(it.known.role) {
		if it.ifaces.has(ifValue) {
			it.cValue = c.prop(it.bus, it.path, ifaceValue, "CurrentValue")
		}
		if it.ifaces.has(ifText) && it.cCount == nil {
			it.cCount = c.prop(it.bus, it.path, ifaceText, "CharacterCount")
		}
	}
	if mode.full() && it.known.childCount > 0 && len(it.known.children) == 0 {
		it.cKids = c.call(it.bus, it.path, ifaceAccessible+".GetChildren")
	}
}

func (b *Backend) issueExtents(c *caller, it *rd) {
	if it.ifaces.has(ifComponent) && it.cExt == nil {
		coord := coordScreen
		if it.app != nil && it.app.windowCoords {
			coord = coordWindow
		}
		it.cExt = c.call(it.bus, it.path, ifaceComponent+".GetExtents", coord)
	}
}

func (b *Backend) issuePhase2(c *caller, it *rd, mode readMode) {
	b.issueExtents(c, it)
	if mode == modeWindow {
		return
	}
	if n := propInt(it.props, "ChildCount"); mode.full() && n > 0 && len(it.known.children) != n && it.cKids == nil {
		it.cKids = c.call(it.bus, it.path, ifaceAccessible+".GetChildren")
	}
	if !it.secure {
		if it.ifaces.has(ifValue) && it.cValue == nil {
			it.cValue = c.prop(it.bus, it.path, ifaceValue, "CurrentValue")
		}
		if it.ifaces.has(ifText) && it.cCount == nil {
			it.cCount = c.prop(it.bus, it.path, ifaceText, "CharacterCount")
		}
	}
	if !mode.full() {
		return
	}
	if it.ifaces.has(ifAction) && !it.known.haveActions && !(it.app != nil && it.app.actionsOnEverything && !interactive(it.st)) {
		it.cActions = c.call(it.bus, it.path, ifaceAction+".GetActions")
	}
	if !it.known.haveAttrs && !(it.app != nil && it.app.gtk4) { // GTK4 4.8 has no attributes but "toolkit"
		it.cAttr = c.call(it.bus, it.path, ifaceAccessible+".GetAttributes")
	}
	if propString(it.props, "Name") == "" && isLabelledRole(it.role) {
		it.cRel = c.call(it.bus, it.path, ifaceAccessible+".GetRelationSet")
	}
}

func (b *Backend) phase2(ctx context.Context, live []*rd, mode readMode) []*rd {
	next := live[:0:0]
	var origins originCache
	for _, it := range live {
		// A vanished element or app shows in any call; the first fatal error wins.
		for _, call := range []*dbus.Call{it.cExt, it.cKids, it.cValue, it.cCount, it.cActions, it.cAttr, it.cRel} {
			if call != nil && call.Err != nil {
				if e := b.callError(ctx, it.bus, it.path, call.Method, call.Err); fatal(e) {
					it.err = e
					break
				}
			}
		}
		if it.err != nil {
			continue
		}
		n := &it.node
		n.Ref = it.ref
		n.States = nodeStates(it.role, it.st)
		n.Role = NormaliseRole(it.role, n.States)
		n.PlatformRole = RoleName(it.role)
		n.Name = propString(it.props, "Name")
		if it.app != nil && it.app.gtk4 && gtkClassName.MatchString(n.Name) {
			n.Name = "" // GTK4 4.8 names unnamed widgets after their class ("GtkEntry")
		}
		if _, ok := it.props["Name"]; ok {
			name := n.Name
			b.cache.update(it.ref, func(ri *refInfo) { ri.name, ri.haveName = strings.Clone(name), true })
		}
		n.Description = propString(it.props, "Description")
		n.Secure = it.secure
		n.ChildCount = propInt(it.props, "ChildCount")
		n.Parent = variantRef(it.props["Parent"])
		if it.cExt != nil && it.cExt.Err == nil {
			var e extents
			if it.cExt.Store(&e) == nil {
				if origins == nil {
					origins = originCache{}
				}
				n.Bounds, n.Offscreen = b.screenRect(ctx, it.app, it.ref, e, origins)
			}
		}
		if it.cKids != nil && it.cKids.Err == nil {
			var kids []objRef
			if it.cKids.Store(&kids) == nil {
				n.Children = make([]observer.NodeRef, 0, len(kids))
				for _, k := range kids {
					if !isNullRef(k.Bus, string(k.Path)) {
						n.Children = append(n.Children, MakeRef(k.Bus, string(k.Path)))
					}
				}
				n.ChildCount = len(n.Children)
				if len(kids) >= longList && len(kids) == propInt(it.props, "ChildCount") {
					kept := n.Children
					b.cache.update(it.ref, func(ri *refInfo) { ri.children = kept })
				}
			}
		} else if mode.full() && it.cKids == nil && len(it.known.children) > 0 {
			n.Children = it.known.children // unchanged since the last read: same count, no event
		} else if mode.full() && n.ChildCount > 0 && it.cKids != nil {
			n.ChildCount = 0 // the children could not be listed
		}
		if it.cValue != nil && it.cValue.Err == nil && !it.secure {
			var v dbus.Variant
			if it.cValue.Store(&v) == nil {
				if f, ok := variantFloat(v); ok {
					n.Value, n.HasValue = strconv.FormatFloat(f, 'f', -1, 64), true
				}
			}
		}
		if it.cCount != nil && it.cCount.Err == nil && !it.secure {
			var v dbus.Variant
			if it.cCount.Store(&v) == nil {
				if c, ok := v.Value().(int32); ok && c > 0 {
					it.count = c
				}
			}
		}
		if isCheckable(it.role) && !n.HasValue {
			switch {
			case it.st.has(stateIndeterminate):
				n.Value = "2"
			case it.st.has(stateChecked):
				n.Value = "1"
			default:
				n.Value = "0"
			}
			n.HasValue = true
		}
		if it.cActions != nil && it.cActions.Err == nil {
			var acts []actionDesc
			if it.cActions.Store(&acts) == nil {
				it.known.actions, it.known.haveActions = actionNames(acts), true
				switch {
				case !slices.Contains(it.known.actions, ""):
					names := ownedSlice(it.known.actions)
					b.cache.update(it.ref, func(ri *refInfo) { ri.actions, ri.haveActions = names, true })
				case !interactive(it.st):
					// Unnamed actions of an element no user acts on (Chromium's "doDefault" on
					// every text run and section): not worth two calls each on a 16,000-element
					// page. They stay unlisted; Perform asks for them when it is asked to.
					it.known.actions = nil
				}
			}
		}
		if it.cAttr != nil && it.cAttr.Err == nil {
			var attrs map[string]string
			if it.cAttr.Store(&attrs) == nil {
				it.known.attrs, it.known.haveAttrs = attrs, true
				owned := ownedMap(attrs)
				b.cache.update(it.ref, func(ri *refInfo) { ri.attrs, ri.haveAttrs = owned, true })
			}
		}
		n.Actions = it.known.actions
		n.Identifier = propString(it.props, "AccessibleId")
		if n.Identifier == "" {
			n.Identifier = it.known.attrs["id"]
		}
		n.Subrole = it.known.attrs["xml-roles"]
		next = append(next, it)
	}
	return next
}

func (b *Backend) phase3(ctx context.Context, it *rd, mode readMode) {
	n := &it.node
	if it.cText != nil {
		if it.cText.Err != nil {
			if e := b.callError(ctx, it.bus, it.path, it.cText.Method, it.cText.Err); fatal(e) {
				it.err = e
				return
			}
		} else if !it.secure {
			var s string
			if it.cText.Store(&s) == nil {
				b.placeText(it, s)
				count := it.count
				b.cache.update(it.ref, func(ri *refInfo) { ri.text, ri.textCount, ri.haveText = strings.Clone(s), count, true })
			}
		}
	} else if !it.secure && it.ifaces.has(ifText) && it.count == 0 && it.st.has(stateEditable) && !n.HasValue {
		n.HasValue = true // an empty entry has the value ""
	}
	if len(it.cActionNames) > 0 {
		names := slices.Clone(it.known.actions)
		k := 0
		for i := range names {
			if names[i] == "" && k < len(it.cActionNames) {
				if c := it.cActionNames[k]; c.Err == nil {
					_ = c.Store(&names[i])
				}
				k++
			}
		}
		n.Actions = names
		owned := ownedSlice(names)
		b.cache.update(it.ref, func(ri *refInfo) { ri.actions, ri.haveActions = owned, true })
	}
	if it.cLabel != nil && it.cLabel.Err == nil {
		var v dbus.Variant
		if it.cLabel.Store(&v) == nil {
			if s, ok := v.Value().(string); ok {
				n.Label = s
			}
		}
	}
	if n.Secure { // the second lock: nothing of a secure field's text leaves the read
		n.Value, n.HasValue, n.Text = "", false, ""
	}
	_ = mode
}

// reuseText places the text kept from the last read when nothing says it changed: the same
// length, and no text or name event since (a watch drops the kept text on those; without a watch
// nothing would, so the text is read again). It saves a round of calls per walk.
func (b *Backend) reuseText(it *rd) bool {
	if !it.known.haveText || it.known.textCount != it.count || !b.watching() {
		return false
	}
	b.placeText(it, it.known.text)
	return true
}

// placeText puts an element's text where it belongs: the value of an editable element (an entry,
// an editable text view), the text of content (a label, a paragraph, a read-only text view).
func (b *Backend) placeText(it *rd, s string) {
	n := &it.node
	switch {
	case it.secure:
	case n.HasValue && it.ifaces.has(ifValue):
		// a spin button's number is its value already
	case it.st.has(stateEditable):
		n.Value, n.HasValue = s, true
	case onlyEmbedded(s): // a web container's text: one U+FFFC per child, nothing of its own
	case s != n.Name: // a label's text is usually its name: Text only when it says more
		n.Text = s
	}
}

// onlyEmbedded reports whether a hypertext holds nothing but object replacement characters
// (and spaces): the text of a container whose children say it all.
func onlyEmbedded(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return r == '\uFFFC' || unicode.IsSpace(r) }) == ""
}

// gtkClassName matches the class names GTK4 uses as the name of unnamed widgets.
var gtkClassName = regexp.MustCompile(`^Gtk[A-Z][A-Za-z0-9]*$`)

// objRef is an AT-SPI object reference on the wire: (so).
type objRef struct {
	Bus  string
	Path dbus.ObjectPath
}

// extents is Component.GetExtents' answer: (iiii).
type extents struct{ X, Y, W, H int32 }

// screenRect turns extents into global bounds: INT_MIN coordinates or an empty size mean the
// element is off-screen; window coordinates (GTK4) get their window's screen position added.
func (b *Backend) screenRect(ctx context.Context, app *appInfo, ref observer.NodeRef, e extents, origins originCache) (*observer.Rect, bool) {
	if e.X == math.MinInt32 || e.Y == math.MinInt32 || e.W <= 0 || e.H <= 0 {
		return nil, true
	}
	r := observer.Rect{X: float64(e.X), Y: float64(e.Y), W: float64(e.W), H: float64(e.H)}
	if app != nil && app.windowCoords {
		o := b.windowOrigin(ctx, app, ref, origins)
		r.X += o.x
		r.Y += o.y
	}
	return &r, false
}

// actionDesc is one entry of Action.GetActions: (sss) name, description, key binding. The name
// is the localized one, which Chromium leaves empty: actionNames' empty names are asked again,
// one GetName(i) each, which answers the toolkit's own ("press", "jump", "check").
type actionDesc struct {
	Name, Description, KeyBinding string
}

// interactive reports whether a user acts on the element: one that takes the focus or a selection.
func interactive(st stateSet) bool { return st.has(stateFocusable) || st.has(stateSelectable) }

func actionNames(acts []actionDesc) []string {
	names := make([]string, len(acts))
	for i, a := range acts {
		names[i] = a.Name
	}
	return names
}

// variantRef reads an object reference out of a variant ("Parent" property, event data).
func variantRef(v dbus.Variant) observer.NodeRef {
	switch x := v.Value().(type) {
	case []any:
		if len(x) == 2 {
			bus, _ := x[0].(string)
			path, _ := x[1].(dbus.ObjectPath)
			if !isNullRef(bus, string(path)) {
				return MakeRef(bus, string(path))
			}
		}
	case objRef:
		if !isNullRef(x.Bus, string(x.Path)) {
			return MakeRef(x.Bus, string(x.Path))
		}
	}
	return ""
}

func variantFloat(v dbus.Variant) (float64, bool) {
	switch x := v.Value().(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint32:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func propString(props map[string]dbus.Variant, key string) string {
	if v, ok := props[key]; ok {
		s, _ := v.Value().(string)
		return s
	}
	return ""
}

func propInt(props map[string]dbus.Variant, key string) int {
	if v, ok := props[key]; ok {
		switch x := v.Value().(type) {
		case int32:
			return int(x)
		case uint32:
			return int(x)
		case int64:
			return int(x)
		}
	}
	return 0
}

// labelTarget returns the first labelled-by target of a GetRelationSet answer: a(ua(so)).
func labelTarget(body []any) (bus, path string, ok bool) {
	var rels []struct {
		Type    uint32
		Targets []objRef
	}
	if dbus.Store(body, &rels) != nil {
		return "", "", false
	}
	for _, r := range rels {
		if r.Type == relationLabelledBy {
			for _, t := range r.Targets {
				if !isNullRef(t.Bus, string(t.Path)) {
					return t.Bus, string(t.Path), true
				}
			}
		}
	}
	return "", "", false
}

// watching reports whether a watch runs: only then do events keep the cached text true.
func (b *Backend) watching() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.watch != nil
}
