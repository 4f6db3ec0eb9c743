// Package atspi is the Linux backend: it reads the desktop's accessibility tree over AT-SPI2
// (D-Bus, github.com/godbus/dbus/v5) and synthesises physical input through the X server's XTEST
// extension (internal/x11).
//
// Open connects to the session's accessibility bus; the observer does the rest:
//
//	b, err := atspi.Open(ctx)
//	if err != nil {
//		return err // UNAVAILABLE, saying what is missing (no session bus, no AT-SPI bus)
//	}
//	obs := observer.New(b)
//
// Files without a build tag are platform-free and tested on every OS (the role and state
// tables, event normalisation, node references, error mapping, toolkit traits, keysyms);
// ARCHITECTURE.md maps the files tagged linux, one concept each.
//
// Element handles (model.NodeRef) are "<bus name>|<object path>". Reads are pipelined: the
// calls for a whole batch are in flight together, in three phases (role, states, properties and
// interfaces; what the interfaces allow; text, whose length is always read first because GTK3
// crashes on GetText(0, -1)). A call times out when its app has answered nothing for the call
// timeout, so a busy app working through a long batch is waited for and a frozen one is not.
// Secure fields (numeric role password-text) are never asked for their text or value, whatever
// role name the toolkit reports (GTK4 calls its password entry "text box").
//
// Events: the registry is asked for the event classes a watch needs (GTK3 emits nothing until
// someone registers); each app's events are handled in order on a goroutine of their own, so a
// frozen app delays only itself. An element read while the watch runs has its states, name and
// text kept true by its events as they arrive, and its value until its value event (which
// carries none); a read that crossed an event keeps nothing. An event about it is told at once
// with the element as the event left it, without bounds; the others (an element never read, a
// value event, a new top-level whose role says whether it is a dialog) are read, those of a run
// of events together. GTK4 4.8
// misses events (no children-changed for an added child, no value-changed, no window:create) and
// reports only on elements a client has seen: a watch walks its windows once and re-reads it
// every recheck period (Cache.GetItems and the values of value-bearing elements), reporting what
// changed silently with Raw prefixed "poll:".
//
// Toolkit differences handled here: GTK4 answers Component.GetExtents in window coordinates
// whatever is asked (the window's position comes from X11), names unnamed widgets after their
// class ("GtkEntry", dropped), sets SENSITIVE without ENABLED, announces a new top-level as
// children-changed on the root pointing at the root, and closes a dialog with state-changed:defunct
// alone; GTK3 names the new top-level in the event.
package atspi
