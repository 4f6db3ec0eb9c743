package handlers

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testkit"
)

// TestHeavyGateShares: an identity runs at most its share, queues a few more and is BUSY
// beyond; another identity's request passes the first's queue; nothing is left counted.
func TestHeavyGateShares(t *testing.T) {
	var g heavyGate
	ctx := context.Background()
	var releases []func()
	for range api.MaxHeavyPerIdentity {
		r, err := g.acquire(ctx, "a", 1)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
	}
	queued := make(chan error, api.MaxHeavyQueuedPerIdentity)
	for range api.MaxHeavyQueuedPerIdentity {
		go func() {
			r, err := g.acquire(ctx, "a", 1)
			if err == nil {
				r()
			}
			queued <- err
		}()
	}
	testkit.Eventually(t, 5*time.Second, fmt.Sprintf("%d queued", api.MaxHeavyQueuedPerIdentity), func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.queued == api.MaxHeavyQueuedPerIdentity
	})
	if _, err := g.acquire(ctx, "a", 1); model.CodeOf(err) != model.CodeBusy {
		t.Fatalf("past the queue: %v, want BUSY", err)
	}
	rb, err := g.acquire(ctx, "b", api.MaxHeavyBytesPerIdentity*10) // clamped to its share
	if err != nil {
		t.Fatalf("another identity waits behind the first's queue: %v", err)
	}
	rb()
	for _, r := range releases {
		r()
	}
	for range api.MaxHeavyQueuedPerIdentity {
		if err := <-queued; err != nil {
			t.Fatalf("a queued request: %v", err)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running != 0 || g.queued != 0 || g.bytes != 0 || len(g.waiting) != 0 || len(g.uses) != 0 {
		t.Fatalf("left counted: running %d queued %d bytes %d waiting %d uses %v", g.running, g.queued, g.bytes, len(g.waiting), g.uses)
	}
}

// TestHeavyGateDeadline: a request that waits past its deadline is BUSY, never run.
func TestHeavyGateDeadline(t *testing.T) {
	var g heavyGate
	var releases []func()
	for range api.MaxHeavyPerIdentity {
		r, err := g.acquire(context.Background(), "a", 1)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := g.acquire(ctx, "a", 1); model.CodeOf(err) != model.CodeBusy {
		t.Fatalf("after its deadline: %v, want BUSY", err)
	}
	for _, r := range releases {
		r()
		r() // twice: counted once
	}
	if g.running != 0 || len(g.uses) != 0 {
		t.Fatalf("running %d, uses %v", g.running, g.uses)
	}
}
