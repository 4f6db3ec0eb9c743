package embedded

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/nats-io/nats.go"
)

// Interest counts a TCP client's exact and wildcard subscriptions and the in-process
// connection's, and forgets them once they are gone; the event stream's own subscription
// (ax.h1.evt.>) is no interest in another subject.
func TestInterest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := startTest(t, dir, WithEventStream("EVT", "ax.h1.evt.>"))
	const subject = "ax.h1.snap.gedit"
	if n := s.Interest(subject); n != 0 {
		t.Fatalf("interest %d before any subscription", n)
	}
	nc, _, err := Connect(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var subs []*nats.Subscription
	for i, subj := range []string{subject, "ax.h1.snap.*", "ax.>", "ax.h1.snap.other", "ax.h1.evt.>"} {
		subs = append(subs, testkit.Subscribed(t, nc, subj))
		if want := min(i+1, 3); s.Interest(subject) != want {
			t.Errorf("after subscribing %s: interest %d, want %d", subj, s.Interest(subject), want)
		}
	}
	inproc := testkit.Subscribed(t, s.Conn(), subject)
	if n := s.Interest(subject); n != 4 {
		t.Errorf("with the in-process subscription: interest %d, want 4", n)
	}
	_ = inproc.Unsubscribe()
	for _, sub := range subs {
		_ = sub.Unsubscribe()
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Conn().Flush(); err != nil {
		t.Fatal(err)
	}
	if n := s.Interest(subject); n != 0 {
		t.Errorf("after every unsubscribe: interest %d", n)
	}
}

// BenchmarkInterest: nobody listening (the idle daemon's question at every cycle), and one
// listener among a daemon's worth of subscriptions (the exact count).
func BenchmarkInterest(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "state")
	s, err := Start(WithStateDir(dir), WithListen("127.0.0.1:0"), WithLogger(testLogger()), WithEventStream("EVT", "ax.h1.evt.>"))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Shutdown(b.Context()) }()
	for i := range 100 { // the micro service's endpoints and the like
		if _, err := s.Conn().SubscribeSync(fmt.Sprintf("ax.h1.api.e%d", i)); err != nil {
			b.Fatal(err)
		}
	}
	_ = s.Conn().Flush()
	b.Run("nobody", func(b *testing.B) {
		for b.Loop() {
			s.Interest("ax.h1.snap.gedit")
		}
	})
	if _, err := s.Conn().SubscribeSync("ax.h1.snap.*"); err != nil {
		b.Fatal(err)
	}
	_ = s.Conn().Flush()
	b.Run("one", func(b *testing.B) {
		for b.Loop() {
			s.Interest("ax.h1.snap.gedit")
		}
	})
}
