package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// Every action says what it caused, with or without an expect (issue 36): on the sim, Save
// adds a "Saved" text and a sheet 200 ms later (confirmed, with those effects), the table's
// Name header does nothing (no_effect_seen within the settle window, although Notes' clock
// ticks in the same window every 2 s), and an expect's action waits no settle window.
func TestEffects(t *testing.T) {
	r := newRig(t)
	start := time.Now()
	reply, err := r.do(t, "click", api.ActionRequest{Target: r.target(t, "save")})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Disposition != api.EffectConfirmed || !hasEffect(reply.Effects, model.EventChildrenChanged) {
		t.Fatalf("Save: %s %+v, want confirmed with the children added", reply.Disposition, reply.Effects)
	}
	t.Logf("Save: %s %+v in %v", reply.Disposition, reply.Effects, time.Since(start).Round(time.Millisecond))

	// The clock ticks every 2 s: its change comes within one action's settle window of four. A
	// daemon has seen it tick before: so must this engine.
	ticked := make(chan struct{}, 1)
	tok, err := r.o.Subscribe(func(ev model.Event) {
		if ev.Element != nil && strings.HasPrefix(ev.Element.Name, "Synced at") {
			select {
			case ticked <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-ticked:
	case <-time.After(10 * time.Second):
		t.Fatal("Notes' clock did not tick")
	}
	r.o.Unsubscribe(tok)
	for range 4 {
		start = time.Now()
		reply, err = r.do(t, "click", api.ActionRequest{Target: r.target(t, "rows-header-name")})
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		if reply.Disposition != api.EffectNoneSeen || len(reply.Effects) != 0 {
			t.Fatalf("the Name header: %s %+v, want no_effect_seen and none", reply.Disposition, reply.Effects)
		}
		if took < api.EffectSettle || took > api.EffectSettle+2*time.Second {
			t.Fatalf("no effect told after %v, want the settle window (%v)", took, api.EffectSettle)
		}
	}

	// With an expect: no settle window, and the effects are what came before the expect ended.
	start = time.Now()
	reply, err = r.do(t, "toggle", api.ActionRequest{Target: r.target(t, "remember"),
		Expect: &api.WaitRequest{Expr: "state:checked", TimeoutMS: 5000}})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took >= api.EffectSettle {
		t.Fatalf("a toggle with its expect took %v: the settle window was added", took)
	}
	if reply.Disposition != api.EffectConfirmed || !hasEffect(reply.Effects, model.EventValueChanged) {
		t.Fatalf("toggle: %s %+v, want confirmed by its value", reply.Disposition, reply.Effects)
	}
}

func hasEffect(effects []api.Effect, typ model.EventType) bool {
	for _, fx := range effects {
		if fx.Type == typ {
			return true
		}
	}
	return false
}
