package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/headless"
	"github.com/nats-io/nats.go"
)

func init() {
	platformSuites = append(platformSuites, suite{"idle-desktop", benchIdleDesktop})
}

// The idle targets: what a daemon nobody uses may cost beside real apps.
const (
	idleWindow    = 20 * time.Second
	idleSettle    = 5 * time.Second
	idleCPUTarget = 1.0 // percent of one core
	idleRSSTarget = 60  // MB
)

// benchIdleDesktop: `axbus serve` on a headless desktop beside the GTK3 fixture app and Chromium
// on the long page, as its own process, measured from /proc over idleWindow: its CPU share of
// one core (utime + stime) and its peak RSS, with no client subscribed to anything, then with
// one subscriber to every app's diffs, then after that subscriber left.
func benchIdleDesktop() ([]row, error) {
	s, app, stop, err := desktop(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	beside := fmt.Sprintf("the GTK3 fixture (pid %d)", app.PID)
	// The real target: beside Chromium showing fixtures/web/long.html (~16,000 elements). The
	// session ends the browser with everything else.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	b, err := s.StartBrowser(ctx, "long.html")
	cancel()
	if err != nil {
		beside += fmt.Sprintf(" (Chromium not started: %v)", err)
	} else {
		beside += fmt.Sprintf(" and Chromium on long.html (pid %d)", b.PID)
	}

	dir, err := os.MkdirTemp("", "axbench-idle-desktop-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(*axbusBin, "serve", "--backend", "atspi", "--state-dir", dir, "--listen", "127.0.0.1:0",
		"--host", "bench", "--log-level", "error")
	cmd.Env = s.Env()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w (run make build)", *axbusBin, err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	pid := cmd.Process.Pid
	nc, err := connectWhenUp(dir, 20*time.Second)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	time.Sleep(idleSettle) // startup work (the backend's first listing) is not idle

	note := fmt.Sprintf("%s; axbus serve --backend atspi beside %s", idleWindow, beside)
	idle, err := measureProc(pid, idleWindow)
	if err != nil {
		return nil, err
	}
	rows := []row{{"idle", "daemon beside real apps, no subscriber: CPU of a core / peak RSS (targets < 1% / < 60 MB)",
		idle.String() + " " + idle.verdict(), note, "", ""}}

	subj := api.NewSubjects("", "bench").AllSnaps()
	sub, err := nc.SubscribeSync(subj)
	if err != nil {
		return rows, err
	}
	// The reset first: the measurement starts once the copy is read. An older build (-axbus),
	// which polls whether anyone listens or not, sent its reset at start: measured anyway.
	first := "a reset first"
	if msg, err := sub.NextMsg(30 * time.Second); err != nil {
		first = "no reset within 30 s"
	} else if !strings.Contains(string(msg.Data), `"kind":"reset"`) {
		first = "no reset first"
	}
	busy, err := measureProc(pid, idleWindow)
	if err != nil {
		return rows, err
	}
	n, _, _ := sub.Pending()
	rows = append(rows, row{"idle", "same, one subscriber to every app's diffs: CPU of a core / peak RSS", busy.String(),
		fmt.Sprintf("%s; on %s: %s, then %d diffs", note, subj, first, n), "", ""})

	if err := sub.Unsubscribe(); err != nil {
		return rows, err
	}
	after, err := measureProc(pid, idleWindow)
	if err != nil {
		return rows, err
	}
	return append(rows, row{"idle", "same, after the subscriber left: CPU of a core / peak RSS", after.String(),
		note + "; the copy dropped and the heap's free memory handed back a tick after the subscriber left", "", ""}), nil
}

// connectWhenUp connects to the daemon of dir once it serves requests.
func connectWhenUp(dir string, within time.Duration) (*nats.Conn, error) {
	deadline := time.Now().Add(within)
	for {
		nc, _, err := embedded.Connect(dir)
		if err == nil {
			cl, cerr := client.New(context.Background(), nc)
			if cerr == nil {
				if _, cerr = cl.Status(context.Background()); cerr == nil {
					return nc, nil
				}
			}
			nc.Close()
			err = cerr
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("daemon not up within %s: %w", within, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// procUsage is what a process cost over a window.
type procUsage struct {
	cpu        float64 // percent of one core
	peak, last float64 // VmRSS in MB: the highest sample, the last
}

func (u procUsage) String() string {
	return fmt.Sprintf("%.2f%% / %.0f MB (at the end %.0f MB)", u.cpu, u.peak, u.last)
}

// verdict marks the idle targets met or missed, by the peak RSS.
func (u procUsage) verdict() string {
	if u.cpu < idleCPUTarget && u.peak < idleRSSTarget {
		return "(met)"
	}
	return "(missed)"
}

// measureProc samples pid once a second over window: CPU from utime + stime, RSS at its peak.
func measureProc(pid int, window time.Duration) (procUsage, error) {
	t0, err := cpuTicks(pid)
	if err != nil {
		return procUsage{}, err
	}
	start := time.Now()
	var u procUsage
	for time.Since(start) < window {
		time.Sleep(time.Second)
		kb, err := rssKB(pid)
		if err != nil {
			return procUsage{}, err
		}
		u.last = float64(kb) / 1024
		u.peak = max(u.peak, u.last)
	}
	t1, err := cpuTicks(pid)
	if err != nil {
		return procUsage{}, err
	}
	u.cpu = 100 * float64(t1-t0) / clockTicks / time.Since(start).Seconds()
	return u, nil
}

// rssKB is pid's VmRSS in kB.
func rssKB(pid int) (int, error) {
	v, err := vmRSS(pid) // "38124 kB"
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(v, "kB")))
}
