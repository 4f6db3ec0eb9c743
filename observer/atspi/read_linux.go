//go:build linux

package atspi

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// longList is the child count from which an element's children are kept between reads.
const longList = 32

// maxTextChars caps Text.GetText: a text element's first 100,000 characters are read.
const maxTextChars = 100_000

// readMode says how much of an element a read fetches.
type readMode int

const (
	// modeFull reads everything a walk needs: children, actions, labels, text.
	modeFull readMode = iota
	// modeSummary reads what an event carries: role, name, states, bounds, value.
	modeSummary
	// modeWindow reads what a window listing needs: role, name, states, bounds.
	modeWindow
	// modeAdded reads what one round trip tells: role, name, states. A child an event adds is
	// read so, at once: an app busy laying it out (GTK3 paints for 15-25 ms from ~1.5 ms after)
	// answers nothing more until it is done.
	modeAdded
	// modeText is modeFull with the text of every text element, labels too.
	modeText
)

// full reports whether the mode reads children, actions and labels.
func (m readMode) full() bool { return m == modeFull || m == modeText }

// rd is one element being read.
type rd struct {
	ref       model.NodeRef
	bus, path string
	app       *appInfo
	known     refInfo
	err       *model.Error

	cRole, cState, cProps, cIfaces               *dbus.Call
	cPropEach                                    []*dbus.Call // Get of each of accessibleProps, instead of cProps (propsOneByOne)
	cExt, cKids, cCount, cValue, cActions, cAttr *dbus.Call
	cRel, cText, cLabel                          *dbus.Call
	cActionNames                                 []*dbus.Call // GetName of each action GetActions counted
	cKidAt                                       []*dbus.Call // GetChildAtIndex of each child GetChildren left out

	role   uint32
	st     stateSet
	props  map[string]dbus.Variant
	ifaces ifaceSet
	secure bool
	count  int32
	// textKept: the text of the last read stands (a watch drops it on a text or name event), so
	// its length is not asked again
	textKept bool
	// propsKept: the Accessible properties of the last read stand (see toolkitTraits.propsByEvents)
	propsKept bool
	// missingKids is the child count when GetChildren listed fewer children: an AtkSocket (the
	// WebKitGTK view embedding its web process) lists none, and its child is asked by index.
	missingKids int
	acted       uint64 // the Backend's acted count as the read began
	// asksAll: nothing kept stands in for asking the app (kept too long, or never kept); a full
	// read that asks all of it renews the element's askedAt.
	asksAll bool
	began   time.Time
	watch   *watchState // the watch running when the read began (nil: none): what it keeps, its events keep true
	node    model.Node
}

// Read reads many elements at once, pipelined: the calls of the whole batch are in flight
// together, in three phases (what every element needs; what its interfaces allow; its text).
func (b *Backend) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	return b.read(ctx, refs, modeFull, b.cfg.sequential)
}

// KnownChildren returns the children ref had when last read, while events are watched: they
// would have said that the children changed (Read still checks their count).
func (b *Backend) KnownChildren(ref model.NodeRef) []model.NodeRef {
	if b.currentWatch() == nil {
		return nil
	}
	return b.cache.children(ref)
}

// ReadWithText reads like Read and also the text of every text element, labels included, whose
// name Read takes for their text: what the read endpoint needs.
func (b *Backend) ReadWithText(ctx context.Context, refs []model.NodeRef) []model.Node {
	return b.read(ctx, refs, modeText, b.cfg.sequential)
}

// SequentialRead reads like Read but one call at a time, each waiting for its answer: the way a
// naive client walks. It exists to measure what pipelining gains.
func (b *Backend) SequentialRead(ctx context.Context, refs []model.NodeRef) []model.Node {
	return b.read(ctx, refs, modeFull, true)
}

func (b *Backend) read(ctx context.Context, refs []model.NodeRef, mode readMode, seq bool) []model.Node {
	out := make([]model.Node, len(refs))
	if len(refs) == 0 {
		return out
	}
	if b.isClosed() {
		for i, r := range refs {
			out[i] = model.Node{Ref: r, Err: errClosed()}
		}
		return out
	}
	items := make([]*rd, len(refs))
	var live []*rd
	buses := map[string]bool{}
	// While events are watched they say what changed: the text kept from the last read and the
	// children of every element are used until an event drops them (without a watch, only a
	// long list's children, checked against the child count).
	watch := b.currentWatch()
	acted := b.acted.Load()
	began := time.Now()
	for i, ref := range refs {
		it := &rd{ref: ref, watch: watch, acted: acted, began: began}
		items[i] = it
		bus, path, ok := ParseRef(ref)
		if !ok {
			it.err = errNotOurs(ref)
			continue
		}
		it.bus, it.path = bus, path
		it.known, _ = b.cache.get(ref)
		if watch == nil && len(it.known.children) < longList {
			it.known.children = nil
		}
		if it.known.acted != acted { // an action of ours came since: its events may still be on their way
			it.known.haveText, it.known.propsBy = false, nil // text and properties asked again (and the child count with them)
		}
		if it.asksAll = !it.known.trusted(began); it.asksAll {
			it.known.children, it.known.haveText, it.known.propsBy = nil, false, nil
		}
		if watch != nil && it.known.haveText {
			it.textKept, it.count = true, it.known.textCount
		}
		buses[bus] = true
		live = append(live, it)
	}
	apps := b.ensureApps(ctx, buses)
	for _, it := range live {
		it.app = apps[it.bus]
		it.propsKept = watch != nil && it.app != nil && it.app.propsByEvents && it.known.propsBy == watch && it.known.keptFor(watch)
	}

	// Phase 1: what every element needs.
	b.phase(ctx, seq, func(c *caller) {
		for _, it := range live {
			if ctx.Err() != nil {
				return
			}
			if !it.known.haveRole { // a role does not change; the cache forgets it on accessible-role events
				it.cRole = c.call(it.bus, it.path, accessibleGetRole)
			}
			it.cState = c.call(it.bus, it.path, accessibleGetState)
			switch {
			case it.propsKept:
			case it.app != nil && it.app.propsOneByOne:
				for _, name := range accessibleProps {
					it.cPropEach = append(it.cPropEach, c.prop(it.bus, it.path, ifaceAccessible, name))
				}
			default:
				it.cProps = c.call(it.bus, it.path, propsGetAll, ifaceAccessible)
			}
			if !it.known.haveIfaces || it.known.actionsUnsettled() {
				it.cIfaces = c.call(it.bus, it.path, accessibleGetInterfaces)
			} else {
				b.issueEarly(c, it, mode)
			}
		}
	})
	live = b.takeIdentity(ctx, live)
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
	live = b.buildNode(ctx, live, mode)
	live = b.cancelled(ctx, live)

	// Phase 3: text (never before its length is known: GTK3 crashes on GetText(0, -1)) and labels.
	b.phase(ctx, seq, func(c *caller) {
		for _, it := range live {
			if ctx.Err() != nil {
				return
			}
			if it.count > 0 && !b.reuseText(it) {
				it.cText = c.call(it.bus, it.path, textGetText, int32(0), min(it.count, maxTextChars))
			}
			if it.cActions != nil { // only on a first read: the names are cached whole
				for i := range it.known.actions {
					it.cActionNames = append(it.cActionNames, c.call(it.bus, it.path, actionGetName, int32(i)))
				}
			}
			for i := range it.missingKids {
				it.cKidAt = append(it.cKidAt, c.call(it.bus, it.path, accessibleGetChildAtIndex, int32(i)))
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
		b.completeNode(ctx, it, mode)
		if it.asksAll && mode.full() && it.err == nil {
			b.cache.update(it.ref, func(ri *refInfo) {
				if ri.changes == it.known.changes { // no event since it began: what it read stands
					ri.askedAt = it.began
				}
			})
		}
	}
	for i, it := range items {
		if it.err != nil {
			out[i] = model.Node{Ref: it.ref, Err: it.err}
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
func fatal(e *model.Error) bool {
	switch e.Code {
	case model.CodeElementNotFound, model.CodeAppGone, model.CodeAppNotResponding, model.CodeTimeout,
		model.CodeUnavailable:
		return true
	}
	return false
}

// issueEarly sends, with the first phase, the calls of an element already read once that do not
// depend on what the first phase answers: its interfaces and role are known, so its bounds, its
// value and (when it had some) its children can be asked at once. A warm read then takes one
// round of calls fewer per batch.
func (b *Backend) issueEarly(c *caller, it *rd, mode readMode) {
	it.ifaces = it.known.ifaces
	b.issueExtents(c, it)
	if mode == modeWindow || mode == modeAdded || !it.known.haveRole {
		return
	}
	if !it.known.secure && !IsSecureRole(it.known.role) {
		if it.ifaces.has(ifValue) {
			it.cValue = c.prop(it.bus, it.path, ifaceValue, "CurrentValue")
		}
		if it.ifaces.has(ifText) && it.cCount == nil && !it.textKept {
			it.cCount = c.prop(it.bus, it.path, ifaceText, "CharacterCount")
		}
	}
	if mode.full() && it.known.childCount > 0 && len(it.known.children) == 0 {
		it.cKids = c.call(it.bus, it.path, accessibleGetChildren)
	}
}

func (b *Backend) issueExtents(c *caller, it *rd) {
	if it.ifaces.has(ifComponent) && it.cExt == nil {
		coord := coordScreen
		if it.app != nil && it.app.windowCoords {
			coord = coordWindow
		}
		it.cExt = c.call(it.bus, it.path, componentGetExtents, coord)
	}
}

func (b *Backend) issuePhase2(c *caller, it *rd, mode readMode) {
	if mode == modeAdded {
		return
	}
	b.issueExtents(c, it)
	if mode == modeWindow {
		return
	}
	if n := propInt(it.props, "ChildCount"); mode.full() && n > 0 && len(it.known.children) != n && it.cKids == nil {
		it.cKids = c.call(it.bus, it.path, accessibleGetChildren)
	}
	if !it.secure {
		if it.ifaces.has(ifValue) && it.cValue == nil {
			it.cValue = c.prop(it.bus, it.path, ifaceValue, "CurrentValue")
		}
		if it.ifaces.has(ifText) && it.cCount == nil && !it.textKept {
			it.cCount = c.prop(it.bus, it.path, ifaceText, "CharacterCount")
		}
	}
	if !mode.full() {
		return
	}
	// The actions of an element no user acts on are not listed: Chromium offers "doDefault" and
	// "showContextMenu" on every text run of a 16,000-element page. Perform asks when it needs them.
	// NActions counts them and GetName names each, as libatspi does: GetActions' first field is
	// the name in the desktop's language (";;" on Firefox), and WebKit's web process never
	// answers GetActions at all.
	if it.ifaces.has(ifAction) && !it.known.haveActions && interactive(it.st) {
		it.cActions = c.prop(it.bus, it.path, ifaceAction, "NActions")
	}
	if !it.known.haveAttrs && !(it.app != nil && it.app.gtk4) { // GTK4 4.8 has no attributes but "toolkit"
		it.cAttr = c.call(it.bus, it.path, accessibleGetAttributes)
	}
	if propString(it.props, "Name") == "" && isLabelledRole(it.role) {
		it.cRel = c.call(it.bus, it.path, accessibleGetRelationSet)
	}
}
