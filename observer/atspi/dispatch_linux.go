//go:build linux

package atspi

import (
	"context"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// dispatch is the backend's one signal consumer: focus tracking, app lifecycle and registry
// restarts for everybody, events for the watch.
func (b *Backend) dispatch() {
	defer b.wg.Done()
	for {
		batch, ok := b.sigs.take()
		if !ok {
			return
		}
		for _, a := range batch {
			b.handleSignal(a.sig, a.at)
			b.sigs.handled(a.sig)
		}
	}
}

func (b *Backend) handleSignal(s *dbus.Signal, at time.Time) {
	if s.Name == dbusName+".NameOwnerChanged" {
		var name, old, neu string
		if dbus.Store(s.Body, &name, &old, &neu) != nil {
			return
		}
		switch {
		case name == registryName && neu != "":
			b.registryRestarted(neu)
		case strings.HasPrefix(name, ":") && neu == "" && old != "":
			b.appGone(name, at, "NameOwnerChanged")
			b.mu.Lock()
			w := b.watch
			delete(b.probed, name)
			b.mu.Unlock()
			if w != nil {
				w.leftBus(name)
			}
		}
		return
	}
	i := strings.LastIndexByte(s.Name, '.')
	if i < 0 {
		return
	}
	class := eventClass(s.Name[:i])
	if class == "" || len(s.Body) < 4 {
		return
	}
	raw := RawEvent{Class: class, Event: hyphenate(s.Name[i+1:])}
	raw.Kind, _ = s.Body[0].(string)
	raw.D1, _ = s.Body[1].(int32)
	raw.D2, _ = s.Body[2].(int32)
	data, _ := s.Body[3].(dbus.Variant)
	src := MakeRef(s.Sender, string(s.Path))

	b.mu.Lock()
	registry := b.registry
	w := b.watch
	b.mu.Unlock()
	if s.Sender == registry && string(s.Path) == rootPath {
		if raw.Event == "children-changed" {
			app := variantRef(data)
			bus, _, ok := ParseRef(app)
			if !ok || bus == b.self {
				return
			}
			switch raw.mainKind() {
			case "add":
				b.appLaunched(bus, at, raw.Name())
			case "remove":
				b.appGone(bus, at, raw.Name())
			}
		}
		return
	}
	switch {
	case raw.Class == "object" && raw.Event == "state-changed" && raw.mainKind() == "focused":
		b.trackFocus(s.Sender, src, raw.D1 != 0, at)
	case raw.Class == "focus":
		b.trackFocus(s.Sender, src, true, at)
	case raw.Class == "object" && raw.Event == "property-change" && raw.mainKind() == "accessible-role":
		b.cache.update(src, func(ri *refInfo) { ri.haveRole = false }) // read it again next time
	case raw.Class == "object" && raw.Event == "children-changed":
		b.cache.update(src, func(ri *refInfo) { // list them and count them again next time
			ri.changes++
			ri.children, ri.propsBy = nil, nil
		})
	case raw.Class == "object" && raw.Event == "text-changed":
		s, _ := data.Value().(string)
		b.cache.update(src, func(ri *refInfo) {
			ri.changes++
			ri.propsBy = nil // a table cell's name is its text
			ri.applyText(raw.mainKind(), int(raw.D1), int(raw.D2), s)
		})
	case raw.Class == "object" && (raw.Event == "value-changed" || raw.Event == "property-change" && raw.mainKind() == "accessible-value"):
		b.cache.update(src, func(ri *refInfo) { // the event carries no value: read it again
			ri.changes++
			ri.haveValue = false
		})
	case raw.Class == "object" && raw.Event == "property-change" && raw.mainKind() == "accessible-name":
		name, ok := data.Value().(string)
		b.cache.update(src, func(ri *refInfo) {
			ri.haveText = false // read it again next time
			ri.changes++
			ri.propsBy = nil
			ri.name, ri.haveName = strings.Clone(name), ok
		})
	case raw.Class == "object" && raw.Event == "property-change": // a description, a parent...: ask again
		b.cache.update(src, func(ri *refInfo) {
			ri.changes++
			ri.propsBy = nil
		})
	}
	if raw.Class == "object" && raw.Event == "state-changed" {
		if i, ok := StateNumber(raw.mainKind()); ok {
			b.cache.update(src, func(ri *refInfo) {
				ri.changes++
				ri.states = ri.states.with(i, raw.D1 != 0)
			})
		}
	}
	if w != nil {
		j := job{kind: jobEvent, raw: raw, src: src, data: data, at: at}
		// What the cache holds of the element now, this event applied and none after it: the
		// element as the event left it, for a summary told without asking the app.
		j.known, j.haveKnown = b.cache.get(eventRef(j))
		w.enqueue(s.Sender, j)
	}
}

// registryRestarted re-registers the events with a new registry, which knows none of them.
func (b *Backend) registryRestarted(owner string) {
	b.mu.Lock()
	changed := b.registry != owner
	b.registry = owner
	watching := b.watch != nil
	closed := b.closed
	b.mu.Unlock()
	if !changed || closed {
		return
	}
	b.log.Info("atspi: the registry restarted; registering the events again", "owner", owner)
	b.rememberConnections()
	events := []string{focusEvent}
	if watching {
		events = append(events, registeredEvents...)
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 2*b.cfg.callTimeout)
		defer cancel()
		go func() {
			select {
			case <-b.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		b.registerEvents(ctx, events)
	}()
}

// rememberConnections notes the connections on the accessibility bus as the registry restarts:
// the apps among them register with the new registry, and are not launched by that. It runs on
// the dispatch goroutine, before the signals of those registrations are handled.
func (b *Backend) rememberConnections() {
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.callTimeout)
	defer cancel()
	var names []string
	if err := b.conn.BusObject().CallWithContext(ctx, dbusName+".ListNames", 0).Store(&names); err != nil {
		b.log.Warn("atspi: cannot list the connections as the registry restarts; their apps may be announced again", "err", err)
		return
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		if strings.HasPrefix(n, ":") {
			set[n] = true
		}
	}
	b.mu.Lock()
	b.reannounce = set
	b.mu.Unlock()
	// The apps register again within moments; the connections that never do (the bus's own,
	// this backend's, clients) are forgotten after the window rather than kept for good.
	time.AfterFunc(b.cfg.reannounce, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.reannounce) > 0 && sameSet(b.reannounce, set) {
			b.reannounce = nil
		}
	})
}

// reannounceWindow is how long after a registry restart a registration is taken for an app
// that was running already registering again.
const reannounceWindow = 30 * time.Second

// sameSet says whether a is what is left of b: the set rememberConnections made, not a later one.
func sameSet(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// appLaunched handles a new registration with the registry: a launch, or an app that was
// running already registering with a restarted registry.
func (b *Backend) appLaunched(bus string, at time.Time, raw string) {
	b.mu.Lock()
	again := b.reannounce[bus]
	delete(b.reannounce, bus)
	w := b.watch
	b.mu.Unlock()
	kind := jobLaunched
	if again {
		kind = jobRegisteredAgain
	}
	if w != nil {
		w.enqueue(bus, job{kind: kind, at: at, rawName: raw})
	}
}

// appGone forgets an app whose bus name vanished or that left the registry, and reports it once.
func (b *Backend) appGone(bus string, at time.Time, raw string) {
	b.mu.Lock()
	a := b.apps[bus]
	delete(b.apps, bus)
	delete(b.focus, bus)
	w := b.watch
	b.mu.Unlock()
	b.cache.dropApp(bus)
	b.dropPeer(bus)
	if w == nil {
		return
	}
	if a == nil || a.pid == b.selfPID {
		w.endQuietly(bus) // never known as an app: end its worker, if any, without an event
		return
	}
	cp := *a
	w.enqueue(bus, job{kind: jobGone, at: at, app: &cp, rawName: raw})
}
