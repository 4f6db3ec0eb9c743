package bus_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
)

// A request may come the moment an endpoint is subscribed, before Serve returns: a handler that
// uses the service (status reports its admission) finds it whole. The soak found a daemon that
// crashed so on a restart under load, when status came first.
func TestStatusAnsweredWhileTheServiceStarts(t *testing.T) {
	s, err := embedded.Start(embedded.WithStateDir(t.TempDir()), embedded.WithListen("127.0.0.1:0"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
	}()
	subj := api.NewSubjects("", "h")
	svc, err := bus.NewService(s.Conn(), bus.Config{Subjects: subj, Backend: "sim"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = svc.Stop() }()
	cl, err := client.New(context.Background(), s.Conn(), client.WithHost("h"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var asked sync.WaitGroup
	answered := make(chan struct{}, 1)
	asked.Go(func() { // status, again and again, from before the service serves
		for ctx.Err() == nil {
			if _, err := cl.Status(ctx); err == nil {
				select {
				case answered <- struct{}{}:
				default:
				}
			}
		}
	})
	status := func(context.Context, api.StatusRequest) (any, error) {
		return api.StatusReply{Host: "h", Admission: svc.Admission()}, nil
	}
	if err := svc.Serve([]bus.Route{bus.Handle("status", status)}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("status never answered")
	}
	cancel()
	asked.Wait()
}
