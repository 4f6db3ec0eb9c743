// Package atspi is the Linux backend: it reads the desktop's accessibility tree over AT-SPI2
// (D-Bus, github.com/godbus/dbus/v5) and synthesises physical input through the X server's XTEST
// extension (github.com/jezek/xgb).
//
// Files without a build tag are platform-free and tested on every OS: the table of every AT-SPI
// role (its canonical name and normalised role), the state table, the normalisation of AT-SPI
// events, node references, the mapping of D-Bus errors onto observer error codes, toolkit traits
// and the keysym tables of physical typing. The files tagged linux hold the backend itself (Open):
//
//   - backend_linux.go opens and closes the backend (its options, the buses, the events registered
//     with the registry) and maps failed calls onto observer errors; dial_linux.go makes buffered
//     bus connections, peer_linux.go the direct connections to the apps that offer one,
//     peerconn_linux.go and peerwire_linux.go their calls and the D-Bus wire format they speak.
//   - apps_linux.go lists the apps and their windows; cache_linux.go keeps what a read learnt of
//     an element that does not change (role, interfaces, actions, a long list's children) and,
//     while a watch runs, what its events keep true (states, name, text, value, children; on
//     GTK3 also the description, parent and child count, so that a warm read asks no GetAll);
//     after an action of ours, whose events may still be on their way, it is asked again.
//   - read_linux.go is Read and the calls each of its phases sends; pipeline_linux.go runs the
//     calls of a phase (all in flight together, or one at a time); answers_linux.go makes the node
//     of their answers; wire_linux.go decodes AT-SPI's values as D-Bus carries them.
//     bounds_linux.go is ReadBounds and the screen position of extents, with x11_linux.go for what
//     only X11 knows (where a GTK4 window is, window titles).
//   - focus_linux.go, actions_linux.go and input_linux.go are FocusPath, Perform and SetAttribute,
//     and Input through XTEST.
//   - Events: signals_linux.go queues the bus's signals without blocking; dispatch_linux.go
//     consumes them (focus, app lifecycle, registry restarts for everybody; events for the watch);
//     watch_linux.go is Watch and its per-app workers, worker_linux.go a worker's queue and the
//     summaries of a run of events, known_linux.go the summaries told from what the events kept
//     without asking the app; handle_linux.go turns each job into events, windows_linux.go
//     tracks each app's top-level windows, and recheck_linux.go re-reads the apps of toolkits that
//     miss events.
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
