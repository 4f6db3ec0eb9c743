package main

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/observer"
	"github.com/nats-io/nats.go"
)

// benchEvents: events per second from the observer side of the publisher to TCP subscribers,
// with the host's JetStream stream capturing every event as in production.
func benchEvents() ([]row, error) {
	var rows []row
	for _, subs := range []int{1, 10} {
		rate, dropped, err := eventRate(subs, 100_000)
		if err != nil {
			return rows, err
		}
		r := row{"events", fmt.Sprintf("events/s through the bus, %d TCP subscribers", subs),
			fmt.Sprintf("%.0f", rate), fmt.Sprintf("100,000 events of ~300 B offered flat out, the stream capturing; the queue was full %d times (re-offered)", dropped), "", ""}
		if subs == 10 {
			r.target, r.verdict = ">= 200,000", verdict(rate >= 200_000)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

func eventRate(nsubs, n int) (float64, uint64, error) {
	d, dir, stop, err := startDaemon()
	if err != nil {
		return 0, 0, err
	}
	defer stop()
	pub := bus.NewPublisher(d.Server.Conn(), d.Subjects, 0, nil)
	defer pub.Close()
	var got atomic.Int64
	done := make(chan struct{})
	want := int64(n * nsubs)
	for range nsubs {
		nc, _, err := embedded.Connect(dir)
		if err != nil {
			return 0, 0, err
		}
		defer nc.Close()
		sub, err := nc.Subscribe(d.Subjects.Events("bench", ""), func(*nats.Msg) {
			if got.Add(1) == want {
				close(done)
			}
		})
		if err != nil {
			return 0, 0, err
		}
		_ = sub.SetPendingLimits(-1, -1)
		_ = nc.Flush()
	}
	ev := observer.Event{Type: observer.EventValueChanged, Raw: "AXValueChanged",
		App:     observer.AppRef{Name: "bench", PID: 1, Generation: 1},
		Element: &observer.ElementSummary{Role: observer.RoleTextField, Name: "Title", Value: "some typed text"}}
	start := time.Now()
	for i := 0; i < n; {
		ev.Time = time.Now()
		if pub.Offer(ev) {
			i++
		} else {
			time.Sleep(50 * time.Microsecond) // queue full: let it drain rather than count drops
		}
	}
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		return 0, 0, fmt.Errorf("only %d of %d events arrived", got.Load(), want)
	}
	return float64(n) / time.Since(start).Seconds(), pub.Stats().Dropped, nil
}
