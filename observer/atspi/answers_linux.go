//go:build linux

package atspi

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// What a read makes of the answers of its phases: the element's node, and what the cache keeps
// for the next read.

// takeIdentity takes in the first phase's answers (role, states, properties, interfaces) and keeps the
// elements that can be read on.
func (b *Backend) takeIdentity(ctx context.Context, live []*rd) []*rd {
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
			if err := answer(it.cRole, &it.role); err != nil {
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
		_ = answer(it.cState, &words)
		it.st = makeStateSet(words)
		if it.st.has(stateDefunct) {
			it.err = model.Errorf(model.CodeElementNotFound, suggestionFor(model.CodeElementNotFound),
				"element %s of %s is defunct (destroyed)", it.path, b.appLabel(it.bus))
			b.cache.forget(it.ref)
			continue
		}
		propsRead := false
		switch {
		case it.cPropEach != nil:
			if it.props, it.err = b.eachProp(ctx, it); it.err != nil {
				continue
			}
			propsRead = true
		case it.cProps == nil:
			it.props = keptProps(it.known)
		case it.cProps.Err != nil:
			if e := b.callError(ctx, it.bus, it.path, it.cProps.Method, it.cProps.Err); fatal(e) {
				it.err = e
				continue
			}
		default:
			_ = answer(it.cProps, &it.props)
			propsRead = true
		}
		it.ifaces = it.known.ifaces
		if it.cIfaces != nil {
			var names []string
			if it.cIfaces.Err == nil && answer(it.cIfaces, &names) == nil {
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
			ri.acted = it.acted
			ri.keep(it.watch, it.known.changes)
			if propsRead {
				ri.description = strings.Clone(propString(it.props, "Description"))
				ri.accessibleID = strings.Clone(propString(it.props, "AccessibleId"))
				ri.propsBy = nil
				if it.watch != nil && ri.changes == it.known.changes {
					ri.propsBy = it.watch
				}
			}
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

// maxActions bounds the action names asked of one element (Java's text fields have 56).
const maxActions = 64

// maxKidsByIndex bounds the children asked one by one (GetChildAtIndex) of an element whose
// GetChildren lists fewer than its child count: a socket has one.
const maxKidsByIndex = 16

// accessibleProps are the Accessible properties a read takes, asked one by one where GetAll
// cannot be (propsOneByOne).
var accessibleProps = []string{"Name", "Description", "Parent", "ChildCount", "AccessibleId"}

// eachProp collects the answers of the Properties.Get calls of accessibleProps into GetAll's
// shape; a property the toolkit lacks is left out, and a fatal error is the element's.
func (b *Backend) eachProp(ctx context.Context, it *rd) (map[string]dbus.Variant, *model.Error) {
	props := make(map[string]dbus.Variant, len(it.cPropEach))
	for i, c := range it.cPropEach {
		var v dbus.Variant
		if c.Err != nil {
			if e := b.callError(ctx, it.bus, it.path, c.Method, c.Err); fatal(e) {
				return nil, e
			}
		} else if answer(c, &v) == nil {
			props[accessibleProps[i]] = v
		}
	}
	return props, nil
}

// keptProps are the Accessible properties of an element as its last read and the events since
// left them, in the shape of GetAll's answer.
func keptProps(ri refInfo) map[string]dbus.Variant {
	props := map[string]dbus.Variant{
		"Name":        dbus.MakeVariant(ri.name),
		"Description": dbus.MakeVariant(ri.description),
		"ChildCount":  dbus.MakeVariant(int32(ri.childCount)),
	}
	if ri.accessibleID != "" {
		props["AccessibleId"] = dbus.MakeVariant(ri.accessibleID)
	}
	if bus, path, ok := ParseRef(ri.parent); ok {
		props["Parent"] = dbus.MakeVariant(objRef{Bus: bus, Path: dbus.ObjectPath(path)})
	}
	return props
}

// buildNode builds each element's node from the answers of the second phase: bounds, children,
// value, actions, attributes.
func (b *Backend) buildNode(ctx context.Context, live []*rd, mode readMode) []*rd {
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
			b.cache.update(it.ref, func(ri *refInfo) {
				ri.name, ri.haveName = strings.Clone(name), true
				ri.keep(it.watch, it.known.changes)
			})
		}
		n.Description = propString(it.props, "Description")
		n.Secure = it.secure
		n.ChildCount = propInt(it.props, "ChildCount")
		n.Parent = variantRef(it.props["Parent"])
		if it.cExt != nil && it.cExt.Err == nil {
			if e, err := answerExtents(it.cExt); err == nil {
				if origins == nil {
					origins = originCache{}
				}
				n.Bounds, n.Offscreen = b.screenRect(ctx, it.app, it.ref, e, origins)
			}
		}
		if it.cKids != nil && it.cKids.Err == nil {
			if kids, err := answerRefs(it.cKids); err == nil {
				n.Children = make([]model.NodeRef, 0, len(kids))
				for _, k := range kids {
					if !isNullRef(k.Bus, string(k.Path)) {
						n.Children = append(n.Children, MakeRef(k.Bus, string(k.Path)))
					}
				}
				n.ChildCount = len(n.Children)
				if count := propInt(it.props, "ChildCount"); len(kids) < count && count <= maxKidsByIndex {
					it.missingKids = count
				}
				if len(kids) == propInt(it.props, "ChildCount") && (len(kids) >= longList || it.watch != nil) {
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
			if answer(it.cValue, &v) == nil {
				if f, ok := variantFloat(v); ok {
					n.Value, n.HasValue = strconv.FormatFloat(f, 'f', -1, 64), true
					if it.watch != nil { // kept like text, so that a focus event can tell it
						value := n.Value
						b.cache.update(it.ref, func(ri *refInfo) {
							if ri.changes == it.known.changes { // no event since the read began
								ri.value, ri.haveValue = value, true
							}
						})
					}
				}
			}
		}
		if it.cCount != nil && it.cCount.Err == nil && !it.secure {
			var v dbus.Variant
			if answer(it.cCount, &v) == nil {
				if c, ok := v.Value().(int32); ok && c > 0 {
					it.count = c
				}
			}
		}
		if isCheckable(it.role) && !n.HasValue {
			n.Value, n.HasValue = checkedValue(it.st), true
		}
		if it.cActions != nil && it.cActions.Err == nil {
			var v dbus.Variant
			if answer(it.cActions, &v) == nil {
				count, _ := v.Value().(int32)
				count = min(max(count, 0), maxActions)
				// Their names are asked in the third phase (GetName); none is not kept
				// (Backend.keepActions).
				it.known.actions, it.known.haveActions = make([]string, count), true
			}
		}
		if it.cAttr != nil && it.cAttr.Err == nil {
			var attrs map[string]string
			if answer(it.cAttr, &attrs) == nil {
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

// completeNode completes the node with the third phase's answers: text, action names, label.
func (b *Backend) completeNode(ctx context.Context, it *rd, mode readMode) {
	n := &it.node
	if it.cText != nil {
		if it.cText.Err != nil {
			if e := b.callError(ctx, it.bus, it.path, it.cText.Method, it.cText.Err); fatal(e) {
				it.err = e
				return
			}
		} else if !it.secure {
			var s string
			if answer(it.cText, &s) == nil {
				b.placeText(it, s)
				count := it.count
				settled := b.sigs.textSettled(it.bus, it.path)
				b.cache.update(it.ref, func(ri *refInfo) {
					if settled && ri.changes == it.known.changes { // no text event since the read began, none on its way
						ri.text, ri.textCount, ri.haveText = strings.Clone(s), count, true
					}
				})
			}
		}
	} else if !it.secure && it.ifaces.has(ifText) && it.count == 0 && it.st.has(stateEditable) && !n.HasValue {
		n.HasValue = true // an empty entry has the value ""
		if it.watch != nil && it.cCount != nil && it.cCount.Err == nil {
			// kept like any other text, so that an event about the entry can say it is empty
			settled := b.sigs.textSettled(it.bus, it.path)
			b.cache.update(it.ref, func(ri *refInfo) {
				if settled && ri.changes == it.known.changes {
					ri.text, ri.textCount, ri.haveText = "", 0, true
				}
			})
		}
	}
	if len(it.cKidAt) > 0 {
		n.Children = n.Children[:0]
		for _, c := range it.cKidAt {
			var k objRef
			if answer(c, &k) == nil && !isNullRef(k.Bus, string(k.Path)) {
				n.Children = append(n.Children, MakeRef(k.Bus, string(k.Path)))
			}
		}
		n.ChildCount = len(n.Children)
	}
	if len(it.cActionNames) > 0 {
		names := make([]string, len(it.cActionNames))
		for i, c := range it.cActionNames {
			if c.Err == nil {
				_ = answer(c, &names[i])
			}
		}
		n.Actions = names
		b.keepActions(it.ref, names)
	}
	if it.cLabel != nil && it.cLabel.Err == nil {
		var v dbus.Variant
		if answer(it.cLabel, &v) == nil {
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
	if !it.known.haveText || it.known.textCount != it.count || it.watch == nil {
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

// interactive reports whether a user acts on the element: one that takes the focus or a selection.
func interactive(st stateSet) bool { return st.has(stateFocusable) || st.has(stateSelectable) }

// currentWatch is the watch that runs, or nil: only while one runs do events keep the cache true.
func (b *Backend) currentWatch() *watchState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.watch
}
