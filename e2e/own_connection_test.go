package e2e

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// The server cuts a connection that falls 2 s behind, the daemon's own too, which carries every
// endpoint: while it was away (nats.go's default: 2 s before reconnecting) every request was
// refused as having no responder, and an agent whose endpoint came back a moment after status
// was told PERMISSION_DENIED (found by the soak: 281 waits UNAVAILABLE, a set_value
// PERMISSION_DENIED, the daemon up all along). Now the daemon's connection comes back at once
// and says why it went, and a client asks a request nobody answered again for a moment: an
// agent calling all along sees every call answered across the cuts.
func TestTheDaemonsOwnConnectionCutIsNoOutage(t *testing.T) {
	var log testkit.Buffer
	d := testdaemon.StartSim(t, daemon.Config{Desktop: "demo", Log: slog.New(slog.NewTextHandler(&log, nil))})
	agent := testdaemon.NewLeaseAgent(t, d, "ada", api.RoleAgent)
	own := d.Server.Conn()

	stop := make(chan struct{})
	var calls, answered atomic.Int64
	var mu sync.Mutex
	var failures []error
	var callers sync.WaitGroup
	for range 4 { // several at once: one whose request the cut loses does not stop the others
		callers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				var err error
				if n := calls.Add(1); n%2 == 0 {
					_, err = agent.Client.Apps(ctx)
				} else {
					_, err = agent.Client.Wait(ctx, api.WaitRequest{Expr: `element:role=button`, TimeoutMS: 1000})
				}
				cancel()
				if err != nil {
					mu.Lock()
					failures = append(failures, err)
					mu.Unlock()
					continue
				}
				answered.Add(1)
			}
		})
	}
	for range 3 {
		before := answered.Load()
		id, err := own.GetClientID()
		if err != nil {
			t.Fatal(err)
		}
		reconnects := own.Stats().Reconnects
		if err := d.Server.NATS().DisconnectClientByID(id); err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, 10*time.Second, "the daemon's own connection back", func() bool {
			return own.Stats().Reconnects > reconnects && own.Status() == nats.CONNECTED
		})
		testkit.Eventually(t, 10*time.Second, "the agent's calls answered again", func() bool { return answered.Load() > before+5 })
	}
	close(stop)
	callers.Wait()
	// A request the server had handed to the connection as it was cut is lost with it: its caller
	// hears nothing and times out (TIMEOUT, coded). What the cut must not do is refuse requests
	// (no responder: UNAVAILABLE, or PERMISSION_DENIED when status answers first).
	lost := 0
	for _, err := range failures {
		if model.CodeOf(err) != model.CodeTimeout {
			t.Errorf("a call across the daemon's connection cuts: %v", err)
		}
		lost++
	}
	if lost > 3*4 {
		t.Errorf("%d calls lost across 3 cuts, want at most one a caller a cut", lost)
	}
	if n := strings.Count(log.String(), "the daemon's own connection to its server dropped"); n != 3 {
		t.Fatalf("the daemon logged %d cuts of its own connection, want 3:\n%s", n, log.String())
	}
	t.Logf("%d calls across 3 cuts: %d answered, %d lost in flight (TIMEOUT)", calls.Load(), answered.Load(), lost)
}
