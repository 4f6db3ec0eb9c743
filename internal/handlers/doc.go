// Package handlers holds the bodies of the service's endpoints that belong to no engine: the
// observing ones over the observer (apps, windows, inspect, read, snapshot, screenshot and its
// parts kept per identity), heavy work admitted by identity and in all, status, presence, and the
// snapshot ownership every wait and action is checked for (Waiting, Acting). The composition
// root (internal/daemon's routes.go) ties them, and the engines' operations, to the endpoints.
package handlers
