package observer_test

import (
	"testing"

	"github.com/axbus/axbus/observer/sim"
)

// fixtureDesktop starts the simulated desktop fixtures/desktops/<name>.json; the test closes it.
func fixtureDesktop(t testing.TB, name string, opts ...sim.Option) *sim.Desktop {
	t.Helper()
	d, err := sim.Fixture(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}
