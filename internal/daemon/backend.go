package daemon

import (
	"os"
	"slices"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

// opener opens one kind of backend.
type opener func(cfg Config) (observer.Backend, error)

// backends maps --backend names to openers; per-OS files add the platform's own.
var backends = map[string]opener{"sim": openSim}

// platformBackend is what "auto" means on this OS; per-OS files set it.
var platformBackend string

// Backends lists the backend names this binary knows.
func Backends() []string {
	names := make([]string, 0, len(backends))
	for n := range backends {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// OpenBackend opens the backend cfg names ("auto" picks this platform's).
func OpenBackend(cfg Config) (observer.Backend, error) {
	name := cfg.Backend
	if name == "" || name == "auto" {
		if platformBackend == "" {
			return nil, model.Errorf(model.CodeUnavailable,
				"Run with --backend sim for the simulated desktop.",
				"no accessibility backend for this platform yet")
		}
		name = platformBackend
	}
	open, ok := backends[name]
	if !ok {
		return nil, model.Errorf(model.CodeBadRequest, "Choose one of: auto, "+strings.Join(Backends(), ", ")+".",
			"unknown backend %q", name)
	}
	return open(cfg)
}

// openSim serves a simulated desktop: a fixture by name, or a JSON file.
func openSim(cfg Config) (observer.Backend, error) {
	desktop := cfg.Desktop
	if desktop == "" {
		desktop = "demo"
	}
	if _, err := os.Stat(desktop); err != nil { // not a file: a fixture's name
		return backendOrNil(sim.Fixture(desktop))
	}
	return backendOrNil(sim.Load(desktop))
}

// backendOrNil keeps a failed constructor's nil pointer out of the interface.
func backendOrNil(d *sim.Desktop, err error) (observer.Backend, error) {
	if err != nil {
		return nil, err
	}
	return d, nil
}
