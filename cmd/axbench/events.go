package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

const (
	eventsOffered = 200_000
	eventsRounds  = 3
)

// benchEvents: events per second from the observer side of the publisher to TCP subscribers,
// with the host's JetStream stream capturing every event as in production; beside it, in the
// same rounds, the machine's ceiling: a bare nats-server, no stream, no encoding, the same
// subscribers taking the same number of 300 B messages.
func benchEvents() ([]row, error) {
	var rows []row
	for _, subs := range []int{1, 10} {
		var ours, bare []float64
		var full uint64
		for range eventsRounds {
			rate, dropped, err := busEventRate(subs, eventsOffered)
			if err != nil {
				return rows, err
			}
			ours, full = append(ours, rate), full+dropped
			if rate, err = bareEventRate(subs, eventsOffered); err != nil {
				return rows, err
			}
			bare = append(bare, rate)
		}
		o, b := median(ours), median(bare)
		r := row{"events", fmt.Sprintf("events/s through the bus, %d TCP subscribers", subs), fmt.Sprintf("%.0f", o),
			fmt.Sprintf("median of %d rounds of %d events of ~300 B offered flat out, the stream capturing, none lost (the queue was full %d times, re-offered); "+
				"a bare nats-server, no stream, the same subscribers: %.0f/s, so the bus runs at %.0f%% of it", eventsRounds, eventsOffered, full, b, 100*o/b), "", ""}
		if subs == 10 {
			r.target, r.verdict = ">= 200,000", verdict(o >= 200_000)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// busEventRate offers n events to a daemon's publisher and times them until each of nsubs
// TCP subscribers has every one.
func busEventRate(nsubs, n int) (float64, uint64, error) {
	d, dir, stop, err := startDaemon()
	if err != nil {
		return 0, 0, err
	}
	defer stop()
	pub := bus.NewPublisher(d.Server.Conn(), d.Subjects, 0, nil)
	defer pub.Close()
	ev := benchEvent()
	rate, err := deliveryRate(d.Subjects.Events("bench", ""), nsubs, n, func() error {
		for i := 0; i < n; {
			ev.Time = time.Now()
			if pub.Offer(ev) {
				i++
			} else {
				time.Sleep(50 * time.Microsecond) // queue full: let it drain rather than count drops
			}
		}
		return nil
	}, func() (*nats.Conn, error) {
		nc, _, err := embedded.Connect(dir)
		return nc, err
	})
	return rate, pub.Stats().Dropped, err
}

// benchEvent is a value change of a text field, as the sim desktop sends, ~300 B in its envelope.
func benchEvent() model.Event {
	return model.Event{Type: model.EventValueChanged, Raw: "AXValueChanged", Time: time.Now(),
		App:    model.AppRef{Name: "bench", PID: 4242, Generation: 1},
		Window: &model.WindowRef{ID: "w1", Title: "Untitled - Notes"},
		Element: &model.ElementSummary{Role: model.RoleTextField, Name: "Title", Value: "some typed text",
			States: model.StateFocused | model.StateEditable, Bounds: &model.Rect{X: 120, Y: 48, W: 400, H: 24}}}
}

// bareEventRate publishes n copies of one encoded event on a bare nats-server and times them until each
// of nsubs TCP subscribers has every one.
func bareEventRate(nsubs, n int) (float64, error) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true})
	if err != nil {
		return 0, err
	}
	go ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(5 * time.Second) {
		return 0, fmt.Errorf("bare nats-server did not start")
	}
	nc, err := nats.Connect("", nats.InProcessServer(ns))
	if err != nil {
		return 0, err
	}
	defer nc.Close()
	// The same subject and bytes as the bus's events, encoded once.
	payload, err := json.Marshal(&api.Envelope{Host: "bench", Boot: "bare", Seq: 1, Event: benchEvent()})
	if err != nil {
		return 0, err
	}
	return deliveryRate("ax.bench.evt.bench.>", nsubs, n, func() error {
		for range n {
			if err := nc.Publish("ax.bench.evt.bench.value_changed", payload); err != nil {
				return err
			}
		}
		return nc.Flush()
	}, func() (*nats.Conn, error) { return nats.Connect(ns.ClientURL()) })
}

// deliveryRate subscribes nsubs connections to subject, runs publish, and returns n divided by
// the time until every subscriber has n messages.
func deliveryRate(subject string, nsubs, n int, publish func() error, connect func() (*nats.Conn, error)) (float64, error) {
	var got atomic.Int64
	done := make(chan struct{})
	want := int64(n * nsubs)
	for range nsubs {
		nc, err := connect()
		if err != nil {
			return 0, err
		}
		defer nc.Close()
		sub, err := nc.Subscribe(subject, func(*nats.Msg) {
			if got.Add(1) == want {
				close(done)
			}
		})
		if err != nil {
			return 0, err
		}
		_ = sub.SetPendingLimits(-1, -1)
		if err := nc.Flush(); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	if err := publish(); err != nil {
		return 0, err
	}
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		return 0, fmt.Errorf("only %d of %d messages arrived", got.Load(), want)
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
