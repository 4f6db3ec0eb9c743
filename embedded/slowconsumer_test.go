package embedded

import (
	"bufio"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/internal/testkit"
)

// 6. A TCP subscriber that never reads must not stall the daemon's
// publishing (trap 7: with defaults one frozen subscriber stalled an
// in-process publisher for seconds).
func TestFrozenSubscriberDoesNotStallPublisher(t *testing.T) {
	dir := t.TempDir()
	var log testkit.Buffer
	s := startTest(t, dir, WithLogger(slog.New(slog.NewTextHandler(&log, nil))))

	const (
		n       = 200_000
		maxCall = 500 * time.Millisecond
		// A sanity cap only: -race on a busy 2-core machine is slow. The
		// stall itself is judged against the baseline below, measured on
		// the same machine at the same moment. Measured (no race / race):
		// baseline 0.2-0.3 s / 2.5-3 s; with the frozen subscriber 0.2-0.3 s /
		// 3-4 s; without NoFastProducerStall 2.3 s and a 500 ms call; with
		// nats-server defaults 10 s / 12 s.
		maxRun = 20 * time.Second
	)
	payload := make([]byte, 1024)
	nc := s.Conn()

	// Baseline: nobody subscribed.
	base := publishN(t, nc, n, payload)

	frozen := dialFrozen(t, s)
	defer frozen.Close()
	run := publishN(t, nc, n, payload)

	t.Logf("baseline: %v; with a frozen subscriber: %v", base, run)
	if run.worst > maxCall {
		t.Errorf("a Publish call blocked %v (#%d), want < %v", run.worst, run.worstAt, maxCall)
	}
	if run.flush > maxCall {
		t.Errorf("final flush took %v, want < %v", run.flush, maxCall)
	}
	if limit := 2*base.total + time.Second; run.total > limit {
		t.Errorf("run took %v, want < %v (2 x baseline + 1 s): the frozen subscriber stalled the publisher", run.total, limit)
	}
	if run.total > maxRun {
		t.Errorf("run took %v, want < %v", run.total, maxRun)
	}
	// The cut is in the daemon's log at its default level: a monitor cut off is worth knowing.
	testkit.Eventually(t, 10*time.Second, "the slow consumer's cut logged as a warning", func() bool {
		return strings.Contains(log.String(), "level=WARN") && strings.Contains(log.String(), "Slow Consumer")
	})
}

type publishRun struct {
	total, worst, flush time.Duration
	worstAt             int
}

func (r publishRun) String() string {
	return fmt.Sprintf("total %v, slowest call %v (#%d), final flush %v", r.total, r.worst, r.worstAt, r.flush)
}

// publishN publishes n messages and times every call.
func publishN(t *testing.T, nc *nats.Conn, n int, payload []byte) publishRun {
	t.Helper()
	r := publishRun{worstAt: -1}
	start := time.Now()
	for i := range n {
		t0 := time.Now()
		if err := nc.Publish("ax.h1.evt.x.y", payload); err != nil {
			t.Fatalf("publish %d: %v", i, err)
		}
		if d := time.Since(t0); d > r.worst {
			r.worst, r.worstAt = d, i
		}
	}
	t0 := time.Now()
	if err := nc.FlushTimeout(5 * time.Second); err != nil {
		t.Fatalf("flush: %v", err)
	}
	r.flush = time.Since(t0)
	r.total = time.Since(start)
	return r
}

// dialFrozen connects over raw TCP with the client nkey (signing the INFO
// nonce itself), subscribes to everything, and from then on never reads.
func dialFrozen(t *testing.T, s *Server) net.Conn {
	t.Helper()
	u, err := url.Parse(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// A small receive buffer makes the socket fill up sooner.
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(conn)

	_, connect := signedConnect(t, r, s.CredsFile(), "frozen")
	if _, err := fmt.Fprintf(conn, "CONNECT %s\r\nSUB > 1\r\nPING\r\n", connect); err != nil {
		t.Fatal(err)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("waiting for PONG: %v", err)
		}
		if strings.HasPrefix(line, "-ERR") {
			t.Fatalf("server: %q", line)
		}
		if strings.HasPrefix(line, "PONG") {
			break
		}
	}
	_ = conn.SetDeadline(time.Time{})
	return conn
}
