package observer_test

import (
	"testing"

	"github.com/axbus/axbus/fixtures"
	"github.com/axbus/axbus/observer/sim"
)

// fixtureDesktop starts the simulated desktop fixtures/desktops/<name>.json; the test closes it.
func fixtureDesktop(t testing.TB, name string, opts ...sim.Option) *sim.Desktop {
	t.Helper()
	data, ok := fixtures.Desktop(name)
	if !ok {
		t.Fatalf("no fixture desktop %q", name)
	}
	spec, err := sim.Parse(name+".json", data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := sim.New(spec, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}
