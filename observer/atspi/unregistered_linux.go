//go:build linux

package atspi

import (
	"context"
	"strings"

	"github.com/godbus/dbus/v5"
)

// maxProbed bounds what the backend remembers of the connections it asked for a root: a
// connection's unique name is never used again, so the memory is dropped whole past it.
const maxProbed = 4096

// unregistered lists the connections of the accessibility bus that serve an application root
// but are not among the registry's children (listed): apps that did not register with a
// restarted registry (GTK 4 does not; GTK 3 does). A connection is asked once whether it
// serves a root; the answer is kept. Connections of a pid the registry lists already are left
// out: an app's second connection is not a second app.
func (b *Backend) unregistered(ctx context.Context, listed map[string]bool, listedPIDs map[int]bool) []string {
	var names []string
	if err := b.conn.BusObject().CallWithContext(ctx, dbusName+".ListNames", 0).Store(&names); err != nil {
		return nil
	}
	b.mu.Lock()
	if len(b.probed) > maxProbed {
		b.probed = nil
	}
	if b.probed == nil {
		b.probed = map[string]bool{}
	}
	var ask []string
	for _, n := range names {
		if !strings.HasPrefix(n, ":") || n == b.self || n == b.registry || listed[n] {
			continue
		}
		if _, known := b.probed[n]; !known {
			ask = append(ask, n)
		}
	}
	b.mu.Unlock()
	calls := make([]*dbus.Call, len(ask))
	b.phase(ctx, false, func(c *caller) {
		for i, n := range ask {
			calls[i] = c.prop(n, rootPath, ifaceApp, "ToolkitName")
		}
	})
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, n := range ask {
		b.probed[n] = calls[i].Err == nil
	}
	var out []string
	for _, n := range names {
		if b.probed[n] && !listed[n] {
			if a := b.apps[n]; a != nil && listedPIDs[a.pid] {
				continue
			}
			out = append(out, n)
		}
	}
	return out
}
