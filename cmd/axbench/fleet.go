package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
)

// benchFleet: a hub on loopback and three simulated desktops joined to it as leaf nodes. A
// status request to a host from a client of the hub beside the same from the host's own
// client, interleaved; and events per second published by the three hosts at once, as one
// subscriber of the hub receives them.
func benchFleet() ([]row, error) {
	hubDir, err := os.MkdirTemp("", "axbench-hub-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(hubDir)
	hub, err := embedded.StartHub(embedded.HubOptions{StateDir: hubDir, Listen: "127.0.0.1:0", LeafListen: "127.0.0.1:0"})
	if err != nil {
		return nil, err
	}
	defer hub.Shutdown()
	var hosts []*daemon.Daemon
	var localDir string
	for _, h := range []string{"h1", "h2", "h3"} {
		d, dir, stop, err := startDaemonWith(daemon.Config{Backend: "sim", Desktop: "demo", Host: h, HubURL: hub.LeafURL, HubSeed: hub.LeafSeedFile})
		if err != nil {
			return nil, err
		}
		defer stop()
		hosts = append(hosts, d)
		if localDir == "" {
			localDir = dir
		}
	}
	for deadline := time.Now().Add(10 * time.Second); hub.Leaves() != 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%d of 3 hosts joined the hub", hub.Leaves())
		}
	}
	seed, err := nats.NkeyOptionFromSeed(hub.AdminSeedFile)
	if err != nil {
		return nil, err
	}
	remote, err := nats.Connect(hub.ClientURL, seed)
	if err != nil {
		return nil, err
	}
	defer remote.Close()
	local, _, err := embedded.Connect(localDir)
	if err != nil {
		return nil, err
	}
	defer local.Close()
	subject := hosts[0].Subjects.Endpoint("status")
	var viaHub, direct []time.Duration
	for range 5 {
		a, err := roundTrips(remote, subject, 200)
		if err != nil {
			return nil, err
		}
		b, err := roundTrips(local, subject, 200)
		if err != nil {
			return nil, err
		}
		viaHub, direct = append(viaHub, a...), append(direct, b...)
	}
	rate, err := fleetEventRate(remote, hosts, 30_000)
	if err != nil {
		return nil, err
	}
	return []row{
		{"fleet", "status round trip, a client of the hub -> host h1 over the leaf link, p50 / p99", p50p99(viaHub),
			fmt.Sprintf("%d requests, in batches of 200 alternating with the next row's; %.1fx the local one at p50", len(viaHub), float64(percentile(viaHub, 50))/float64(percentile(direct, 50))), "", ""},
		{"fleet", "status round trip, h1's own client over TCP, p50 / p99", p50p99(direct), fmt.Sprintf("%d requests", len(direct)), "", ""},
		{"fleet", "events/s from three hosts at once through the hub to one subscriber", fmt.Sprintf("%.0f", rate),
			"30,000 events of ~300 B from each host's publisher, every one counted at the hub's subscriber", "", ""},
	}, nil
}

// fleetEventRate publishes n events on each host at once and times their arrival at nc.
func fleetEventRate(nc *nats.Conn, hosts []*daemon.Daemon, n int) (float64, error) {
	var got atomic.Int64
	want := int64(n * len(hosts))
	done := make(chan struct{})
	probes := make(chan string, 64) // the host of each probe event that reached the hub's client
	sub, err := nc.Subscribe("ax.*.evt.bench.>", func(m *nats.Msg) {
		if strings.HasSuffix(m.Subject, ".probe") {
			select {
			case probes <- strings.Split(m.Subject, ".")[1]:
			default:
			}
			return
		}
		if got.Add(1) == want {
			close(done)
		}
	})
	if err != nil {
		return 0, err
	}
	defer func() { _ = sub.Unsubscribe() }()
	_ = sub.SetPendingLimits(-1, -1)
	_ = nc.Flush()
	// Interest crosses the leaf links asynchronously: each host publishes a probe event until one
	// arrives here (a request's "no responders" cannot tell: the host's stream answers it).
	for _, d := range hosts {
		probe := d.Subjects.Event("bench", "probe")
		arrived := false
		for deadline := time.Now().Add(10 * time.Second); !arrived; {
			if time.Now().After(deadline) {
				return 0, fmt.Errorf("the hub's interest did not reach %s", d.Subjects.Host)
			}
			_ = d.Server.Conn().Publish(probe, nil)
			select {
			case host := <-probes:
				arrived = host == d.Subjects.Host
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	got.Store(0)
	ev := model.Event{Type: model.EventValueChanged, Raw: "AXValueChanged", App: model.AppRef{Name: "bench", PID: 1, Generation: 1},
		Element: &model.ElementSummary{Role: model.RoleTextField, Name: "Title", Value: "some typed text"}}
	start := time.Now()
	var wg sync.WaitGroup
	for _, d := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pub := bus.NewPublisher(d.Server.Conn(), d.Subjects, 0, nil)
			defer pub.Close()
			for i := 0; i < n; {
				e := ev
				e.Time = time.Now()
				if pub.Offer(e) {
					i++
				} else {
					time.Sleep(50 * time.Microsecond)
				}
			}
		}()
	}
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		return 0, fmt.Errorf("only %d of %d events reached the hub", got.Load(), want)
	}
	wg.Wait()
	return float64(want) / time.Since(start).Seconds(), nil
}
