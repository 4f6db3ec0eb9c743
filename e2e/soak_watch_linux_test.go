package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

// gapCheck follows what each live subscriber saw of each daemon run (boot): every event's
// sequence number must follow the last one's; a gap is an event lost on the way. The events
// the daemon itself dropped (its queue full) carry no number and are counted in the next
// event's Gap: they are said, not lost.
type gapCheck struct {
	mu      sync.Mutex
	last    map[string]uint64 // by subscriber and boot
	seen    map[string]int    // events by subscriber
	gaps    []string
	dropped uint64 // what the daemon said it dropped
}

func newGapCheck() *gapCheck { return &gapCheck{last: map[string]uint64{}, seen: map[string]int{}} }

func (g *gapCheck) see(who string, e *api.Envelope) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seen[who]++
	g.dropped += e.Gap
	k := who + " " + e.Boot
	if last, ok := g.last[k]; ok && e.Seq != last+1 && len(g.gaps) < 20 {
		g.gaps = append(g.gaps, fmt.Sprintf("%s, run %s: event %d after %d", who, e.Boot, e.Seq, last))
	}
	g.last[k] = e.Seq
}

// monitor i follows every event live: the first ones on a subscription of their subjects,
// the last through its client's tail (the stream's ordered consumer).
func (s *soakRun) monitor(i int, m *soakIdentity) {
	if i == soakMonitors-1 {
		s.tailMonitor(m)
		return
	}
	sub, err := m.nc.Subscribe("ax.soak.evt.>", func(msg *nats.Msg) {
		var e api.Envelope
		if err := json.Unmarshal(msg.Data, &e); err != nil {
			s.t.Errorf("%s: an event that does not decode: %v", m.name, err)
			return
		}
		s.gaps.see(m.name, &e)
	})
	if err != nil {
		s.t.Errorf("%s: subscribe: %v", m.name, err)
		return
	}
	defer func() { _ = sub.Unsubscribe() }()
	for s.pause(5 * time.Second) {
		s.watchdog.Beat(m.name)
		if n, _ := sub.Dropped(); n > 0 {
			s.t.Errorf("%s: its client dropped %d events: it could not keep up", m.name, n)
			return
		}
	}
}

// tailMonitor follows the events through its client's tail (the stream's ordered consumer),
// again after the daemon's restart ends it.
func (s *soakRun) tailMonitor(m *soakIdentity) {
	beat := time.NewTicker(5 * time.Second)
	defer beat.Stop()
	for s.ctx.Err() == nil {
		events, err := m.client.Tail(s.ctx, client.TailOptions{})
		if err != nil {
			s.watchdog.Beat(m.name)
			s.pause(time.Second) // the daemon restarting: its tail is asked for again
			continue
		}
	read:
		for {
			select {
			case e, ok := <-events:
				if !ok {
					break read
				}
				s.gaps.see(m.name, &e)
			case <-beat.C:
				s.watchdog.Beat(m.name)
			}
		}
	}
}

// records follows the audit trail live: every action record says its outcome: done, the code
// of its refusal or failure, or how its expect ended (an action whose chain failed while its
// app was frozen, its expect timed out, answers with that).
func (s *soakRun) records() {
	var n, without atomic.Int64
	sub, err := s.owner.nc.Subscribe("ax.soak.act.>", func(msg *nats.Msg) {
		var r api.ActionRecord
		if err := json.Unmarshal(msg.Data, &r); err != nil || !r.Done && r.Error == "" && r.Expect == nil {
			if without.Add(1) <= 3 {
				s.t.Errorf("an action record without its outcome: %s", msg.Data)
			}
		}
		n.Add(1)
	})
	if err != nil {
		s.t.Errorf("audit trail: %v", err)
		return
	}
	for s.pause(5 * time.Second) {
		s.watchdog.Beat("audit")
	}
	_ = sub.Unsubscribe()
	s.t.Logf("the audit trail: %d action records, %d without their outcome", n.Load(), without.Load())
	if n.Load() == 0 {
		s.t.Error("the audit trail carried no action record")
	}
}

// replay reads history again and again: the newest events, then pages after a cursor.
func (s *soakRun) replay(m *soakIdentity) {
	var cursor uint64
	for s.pause(3 * time.Second) {
		s.watchdog.Beat(m.name)
		s.track("history", 10*time.Second, func(ctx context.Context) error {
			page, err := m.client.EventsAfter(ctx, cursor, 500, 0, client.TailOptions{})
			if err == nil {
				cursor = page.Cursor
			}
			return err
		})
	}
}

// slowSubscriber stops reading for 10 s at its first event, then reads on; what its client
// could not hold it drops and counts, while the daemon and every other subscriber go on.
func (s *soakRun) slowSubscriber() {
	var got atomic.Int64
	sub, err := s.owner.nc.Subscribe("ax.soak.evt.>", func(*nats.Msg) {
		if got.Add(1) == 1 {
			s.fault("a subscriber stops reading for 10 s")
			time.Sleep(10 * time.Second) // the stall is the subject
		}
	})
	if err != nil {
		s.t.Errorf("slow subscriber: %v", err)
		return
	}
	_ = sub.SetPendingLimits(1000, 1<<20)
	for s.pause(5 * time.Second) {
		s.watchdog.Beat("slow subscriber")
	}
	dropped, _ := sub.Dropped()
	_ = sub.Unsubscribe()
	s.t.Logf("the slow subscriber: %d events read, %d dropped by its own client", got.Load(), dropped)
}
