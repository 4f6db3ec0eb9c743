package testkit

import (
	"testing"
	"time"
)

func waitHere(release chan struct{}) { <-release }

// Blocked counts a goroutine while it waits in a function, and no more once it has left it.
func TestBlockedSeesAGoroutineWaiting(t *testing.T) {
	const fn = "github.com/axbus/axbus/internal/testkit.waitHere"
	release, left := make(chan struct{}), make(chan struct{})
	go func() { waitHere(release); close(left) }()
	Eventually(t, 5*time.Second, "a goroutine waiting in waitHere", func() bool { return Blocked(fn) == 1 })
	close(release)
	<-left
	if n := Blocked(fn); n != 0 {
		t.Fatalf("%d goroutines still seen waiting in waitHere", n)
	}
}
