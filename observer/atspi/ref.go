package atspi

import (
	"strings"

	"github.com/axbus/axbus/model"
)

// The object paths with a fixed meaning in AT-SPI.
const (
	rootPath  = "/org/a11y/atspi/accessible/root"
	nullPath  = "/org/a11y/atspi/null"
	cachePath = "/org/a11y/atspi/cache"
)

// MakeRef is the handle of the object at path on the connection bus: "<bus name>|<object path>".
func MakeRef(bus, path string) model.NodeRef {
	return model.NodeRef(bus + "|" + path)
}

// ParseRef splits a handle into its bus name and object path. It fails on handles that are not
// of this backend (no separator, an empty bus name, a path that does not start with "/").
func ParseRef(ref model.NodeRef) (bus, path string, ok bool) {
	bus, path, ok = strings.Cut(string(ref), "|")
	if !ok || bus == "" || !strings.HasPrefix(path, "/") {
		return "", "", false
	}
	return bus, path, true
}

// RootRef is the handle of an app's root (its application object).
func RootRef(bus string) model.NodeRef { return MakeRef(bus, rootPath) }

// isNullRef reports whether (bus, path) is AT-SPI's "no object" (an empty bus name or the null path).
func isNullRef(bus, path string) bool { return bus == "" || path == "" || path == nullPath }

// shortID is a short stable id for a window: the last element of its object path.
func shortID(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 && i+1 < len(path) {
		return path[i+1:]
	}
	return path
}

// windowID is a window's short stable id: the last element of its object path, cut to 8
// characters when it is a long generated one (GTK4 uses UUIDs).
func windowID(path string) string {
	id := shortID(path)
	if len(id) > 12 {
		id = strings.SplitN(id, "_", 2)[0]
		if len(id) > 12 {
			id = id[:8]
		}
	}
	return id
}
