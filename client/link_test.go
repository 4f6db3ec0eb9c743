package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

// A request in flight when the connection to the daemon goes gets UNAVAILABLE at once, saying
// the daemon may have done it; not its deadline's TIMEOUT (found by the soak: 200 waits in
// flight at a daemon's SIGKILL each waited out its deadline).
func TestRequestInFlightWhenTheLinkGoes(t *testing.T) {
	for _, call := range []struct {
		name string
		do   func(ctx context.Context, c *client.Client) error
	}{
		{"apps", func(ctx context.Context, c *client.Client) error { _, err := c.Apps(ctx); return err }},
		{"wait", func(ctx context.Context, c *client.Client) error {
			_, err := c.Wait(ctx, api.WaitRequest{Expr: `text:"never"`, TimeoutMS: 30000})
			return err
		}},
		{"history", func(ctx context.Context, c *client.Client) error { // its consumer's creation in flight
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			_, err := c.EventsAfter(ctx, 0, 10, 0, client.TailOptions{})
			return err
		}},
	} {
		ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
		if err != nil {
			t.Fatal(err)
		}
		go ns.Start()
		if !ns.ReadyForConnections(5 * time.Second) {
			t.Fatal("the server did not start")
		}
		nc, err := nats.Connect(ns.ClientURL(), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan struct{}, 1)
		for _, subject := range []string{"ax.h.api.>", "$JS.>"} { // a daemon that never answers
			if _, err := nc.Subscribe(subject, func(*nats.Msg) { got <- struct{}{} }); err != nil {
				t.Fatal(err)
			}
		}
		c, err := client.New(context.Background(), nc, client.WithHost("h"))
		if err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 1)
		go func() { errs <- call.do(context.Background(), c) }()
		<-got
		start := time.Now()
		ns.Shutdown()
		select {
		case err := <-errs:
			e := model.AsError(err)
			if e == nil || e.Code != model.CodeUnavailable || e.Suggestion == "" {
				t.Fatalf("%s: %v, want UNAVAILABLE with a suggestion", call.name, err)
			}
			t.Logf("%s: %v %v after the connection went", call.name, err, time.Since(start))
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no answer 10 s after the connection went (its deadline is 30 s)", call.name)
		}
		nc.Close()
	}
}
