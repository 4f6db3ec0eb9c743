// Package atspi is the Linux backend: it reads the desktop's accessibility tree over AT-SPI2
// (D-Bus, github.com/godbus/dbus/v5) and synthesises physical input through the X server's XTEST
// extension (github.com/jezek/xgb).
//
// Files without a build tag are platform-free and tested on every OS: the table of every AT-SPI
// role (its canonical name and normalised role), the state table, the normalisation of AT-SPI
// events, node references, the mapping of D-Bus errors onto observer error codes, toolkit traits
// and the keysym tables of physical typing. The files tagged linux hold the backend itself (Open).
//
// Element handles (observer.NodeRef) are "<bus name>|<object path>". Reads are pipelined: the
// calls for a whole batch are in flight together, in three phases (role, states, properties and
// interfaces; what the interfaces allow; text, whose length is always read first because GTK3
// crashes on GetText(0, -1)). A call times out when its app has answered nothing for the call
// timeout, so a busy app working through a long batch is waited for and a frozen one is not.
// Secure fields (numeric role password-text) are never asked for their text or value, whatever
// role name the toolkit reports (GTK4 calls its password entry "text box").
//
// Events: the registry is asked for the event classes a watch needs (GTK3 emits nothing until
// someone registers); each app's events are handled in order on a goroutine of their own, so a
// frozen app delays only itself, and the elements of a run of events are read together. GTK4 4.8
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
