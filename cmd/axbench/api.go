package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"
)

// simDemo is a daemon on the simulated demo desktop.
var simDemo = daemon.Config{Backend: "sim", Desktop: "demo"}

// startDaemon starts a daemon on the simulated demo desktop in a temporary state dir.
func startDaemon() (*daemon.Daemon, string, func(), error) { return startDaemonWith(simDemo) }

// startDaemonWith starts a daemon in a temporary state dir on a free port.
func startDaemonWith(cfg daemon.Config) (*daemon.Daemon, string, func(), error) {
	dir, err := os.MkdirTemp("", "axbench-")
	if err != nil {
		return nil, "", nil, err
	}
	cfg.StateDir, cfg.Listen = dir, "127.0.0.1:0"
	if cfg.Host == "" {
		cfg.Host = "bench"
	}
	d, err := daemon.Start(cfg)
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", nil, err
	}
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = d.Close(ctx)
		os.RemoveAll(dir)
	}
	return d, dir, stop, nil
}

// clientDaemon is a suite's daemon and a client of it over TCP, as an agent meets it.
type clientDaemon struct {
	*daemon.Daemon
	dir    string
	nc     *nats.Conn
	client *client.Client
}

// startWithClient is startDaemonWith and a client of the daemon over TCP; stop closes both.
func startWithClient(cfg daemon.Config) (*clientDaemon, func(), error) {
	d, dir, closeDaemon, err := startDaemonWith(cfg)
	if err != nil {
		return nil, nil, err
	}
	nc, _, err := embedded.Connect(dir)
	if err != nil {
		closeDaemon()
		return nil, nil, err
	}
	cl, err := client.New(context.Background(), nc)
	if err != nil {
		nc.Close()
		closeDaemon()
		return nil, nil, err
	}
	return &clientDaemon{Daemon: d, dir: dir, nc: nc, client: cl}, func() { nc.Close(); closeDaemon() }, nil
}

// roundTrips times n requests on subject after a warm-up.
func roundTrips(nc *nats.Conn, subject string, n int) ([]time.Duration, error) {
	for range 200 {
		if _, err := nc.Request(subject, nil, 5*time.Second); err != nil {
			return nil, err
		}
	}
	ds := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		msg, err := nc.Request(subject, nil, 5*time.Second)
		if err != nil {
			return nil, err
		}
		if msg.Header.Get("Nats-Service-Error-Code") != "" {
			return nil, fmt.Errorf("%s: %s", subject, msg.Header.Get("Nats-Service-Error"))
		}
		ds = append(ds, time.Since(start))
	}
	return ds, nil
}

// benchAPI: request-reply round trips to the micro service, in-process and over TCP loopback,
// interleaved so that both see the same machine.
func benchAPI() ([]row, error) {
	d, dir, stop, err := startDaemon()
	if err != nil {
		return nil, err
	}
	defer stop()
	tcp, _, err := embedded.Connect(dir)
	if err != nil {
		return nil, err
	}
	defer tcp.Close()
	conns := []struct {
		name string
		nc   *nats.Conn
	}{{"in-process", d.Server.Conn()}, {"TCP loopback", tcp}}
	// A bare nats.go micro endpoint on the same server and connection: what the service's own
	// work (identity, limits, schema check, audit, encoding) is measured against.
	bare, err := micro.AddService(d.Server.Conn(), micro.Config{Name: "bare", Version: "0.0.1",
		Endpoint: &micro.EndpointConfig{Subject: "bench.bare", Handler: micro.HandlerFunc(func(r micro.Request) { _ = r.Respond([]byte("{}")) })}})
	if err != nil {
		return nil, err
	}
	defer func() { _ = bare.Stop() }()
	var status, plain []time.Duration
	for range 5 { // interleaved, in-process both
		ds, err := roundTrips(d.Server.Conn(), d.Subjects.Endpoint("status"), 1000)
		if err != nil {
			return nil, err
		}
		status = append(status, ds...)
		if ds, err = roundTrips(d.Server.Conn(), "bench.bare", 1000); err != nil {
			return nil, err
		}
		plain = append(plain, ds...)
	}
	ratio := float64(percentile(status, 50)) / float64(percentile(plain, 50))
	rows := []row{
		{"api", "bare nats.go micro endpoint round trip p50 / p99, in-process", p50p99(plain), "5,000 requests, interleaved with status", "", ""},
		{"api", "status / bare micro endpoint, in-process p50", fmt.Sprintf("%.1fx", ratio),
			fmt.Sprintf("status %s at p50 in the same rounds", us(percentile(status, 50))), "<= 2x", verdict(ratio <= 2)},
	}
	for _, ep := range []string{"status", "apps"} {
		var all [2][]time.Duration
		for range 5 { // interleave: 5 rounds of 1,000 on each connection
			for i, c := range conns {
				ds, err := roundTrips(c.nc, d.Subjects.Endpoint(ep), 1000)
				if err != nil {
					return rows, err
				}
				all[i] = append(all[i], ds...)
			}
		}
		for i, c := range conns {
			rows = append(rows, row{"api", fmt.Sprintf("%s round trip p50 / p99, %s", ep, c.name), p50p99(all[i]), "5,000 requests, sim desktop", "", ""})
		}
	}
	return rows, nil
}
