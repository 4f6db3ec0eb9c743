package observer

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/axbus/axbus/model"
)

// gateRecorder collects what a secureGate lets through.
type gateRecorder struct {
	mu  sync.Mutex
	evs []model.Event
	got chan model.Event
}

func newGateRecorder() *gateRecorder { return &gateRecorder{got: make(chan model.Event, 64)} }

func (r *gateRecorder) sink(e model.Event) {
	r.mu.Lock()
	r.evs = append(r.evs, e)
	r.mu.Unlock()
	r.got <- e
}

func (r *gateRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.evs)
}

func keystroke(ref model.NodeRef, start int) model.Event {
	return model.Event{App: model.AppRef{PID: 7}, Type: model.EventTextChanged, Raw: "object:text-changed:insert", Ref: ref, Secure: true,
		Element: &model.ElementSummary{Role: model.RolePassword, Name: "Password", Value: "leak"},
		Detail:  map[string]any{"op": "insert", "start": start, "length": 1}}
}

// A burst of keystrokes into a secure field goes out as one text_changed with no detail, once the
// field is still; the count of events does not follow the count of keys.
func TestSecureGateCoalescesABurst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // fake time: the gate's quiet period passes at once
		r := newGateRecorder()
		g := newSecureGate(r.sink, time.Now)
		defer g.close()
		for i := range 12 {
			g.deliver(keystroke("pw", 23+i))
		}
		if n := r.count(); n != 0 {
			t.Fatalf("%d events went out while the field was being typed into", n)
		}
		select {
		case e := <-r.got:
			if e.Type != model.EventTextChanged || e.Detail != nil || e.Raw != rawSecureCoalesced || e.Element.Value != "" || e.Element.Name != "Password" {
				t.Fatalf("the coalesced event: %+v %+v", e, e.Element)
			}
		case <-time.After(5 * secureQuiet):
			t.Fatal("no text_changed after the burst")
		}
		select {
		case e := <-r.got:
			t.Fatalf("a second event for one burst: %+v", e)
		case <-time.After(2 * secureQuiet):
		}
	})
}

// The focus moving elsewhere in the app, or the field going, sends the held change at once and
// before the event that ended it; other events pass unchanged.
func TestSecureGateFlushesOnFocusAndDestroy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // fake time: the gate's quiet period passes at once
		r := newGateRecorder()
		g := newSecureGate(r.sink, time.Now)
		defer g.close()
		g.deliver(keystroke("pw", 0))
		g.deliver(keystroke("pw", 1))
		g.deliver(model.Event{App: model.AppRef{PID: 7}, Type: model.EventFocusChanged, Ref: "name"})
		if r.count() != 2 || r.evs[0].Type != model.EventTextChanged || r.evs[1].Type != model.EventFocusChanged {
			t.Fatalf("a focus move must send the held change first: %+v", r.evs)
		}
		g.deliver(keystroke("pw", 2))
		g.deliver(model.Event{App: model.AppRef{PID: 7}, Type: model.EventElementDestroyed, Ref: "pw", Secure: true, Detail: map[string]any{"x": 1}})
		if r.count() != 4 || r.evs[2].Type != model.EventTextChanged || r.evs[3].Type != model.EventElementDestroyed || r.evs[3].Detail != nil {
			t.Fatalf("the field's end must send its held change first, and carry no detail: %+v", r.evs)
		}
		plain := model.Event{App: model.AppRef{PID: 7}, Type: model.EventTextChanged, Ref: "name", Detail: map[string]any{"start": 3}}
		g.deliver(plain)
		if r.count() != 5 || r.evs[4].Detail["start"] != 3 {
			t.Fatalf("an event about another field must pass as it is: %+v", r.evs[4])
		}
		g.deliver(keystroke("pw", 3))
		g.close()
		time.Sleep(2 * secureQuiet) // in the bubble: its held change's timer would have fired by now
		synctest.Wait()
		if r.count() != 5 {
			t.Fatalf("a closed gate sent what it held: %+v", r.evs)
		}
	})
}
