//go:build linux

package atspi

import "github.com/axbus/axbus/model"

// knownSummary is the element an event is about as the watch knows it, told without asking the
// app (which is busy with the change: a read then takes 1-5 ms): its role, and its name, states
// and text as the events up to this one left them (job.known), with the value that follows from
// them. It is nil when the app must be asked: its toolkit misses events (GTK4), the element was
// not read while this watch ran, or the event is about a number behind the Value interface
// (which the event does not carry; a read kept it until then). Bounds are not kept: a summary
// told so has none.
func (wk *appWorker) knownSummary(t model.EventType, j job, ref model.NodeRef) *model.Node {
	switch t {
	case model.EventValueChanged, model.EventElementDestroyed:
		return nil
	}
	b := wk.w.b
	if a := b.app(wk.bus); a == nil || !a.complete || a.recheck {
		return nil
	}
	ri := j.known
	if !j.haveKnown || !ri.keptFor(wk.w) {
		return nil
	}
	if j.raw.Class == "focus" {
		ri.states = ri.states.with(stateFocused, true) // the focus: event may come before state-changed:focused
	}
	value, hasValue, ok := knownValue(ri)
	if !ok {
		return nil
	}
	n := cachedNode(ri, ref)
	n.Value, n.HasValue = value, hasValue
	return n
}

// knownValue is the value of an element as a read would give it, from what the cache holds: a
// number behind the Value interface as last read, a check box's from its states, an entry's its
// text. ok is false when only a read can tell (a value or text not kept).
func knownValue(ri refInfo) (value string, hasValue, ok bool) {
	switch {
	case ri.secure:
		return "", false, true
	case ri.ifaces.has(ifValue):
		return ri.value, ri.haveValue, ri.haveValue
	case isCheckable(ri.role):
		return checkedValue(ri.states), true, true
	case ri.ifaces.has(ifText) && ri.states.has(stateEditable):
		return ri.text, ri.haveText, ri.haveText
	}
	return "", false, true
}

// tellable reports whether event j can be delivered without asking its app: it is dropped, or
// the watch knows its element. A new top-level is read (its role says whether it is a dialog).
func (wk *appWorker) tellable(j job) bool {
	t, _, ok := Classify(j.raw)
	switch {
	case !ok:
		return true
	case wk.readsChild(t, j):
		return false
	}
	return wk.knownSummary(t, j, eventRef(j)) != nil
}

// with returns the set with state i set to on.
func (s stateSet) with(i int, on bool) stateSet {
	if i < 0 || i >= 64 {
		return s
	}
	if on {
		return s | 1<<uint(i)
	}
	return s &^ (1 << uint(i))
}

// checkedValue is a checkable element's value: "1" checked, "0" not, "2" indeterminate.
func checkedValue(st stateSet) string {
	switch {
	case st.has(stateIndeterminate):
		return "2"
	case st.has(stateChecked):
		return "1"
	}
	return "0"
}
