package main

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testdaemon"
)

// TestServeHeadlessShowsEventsInTail is `make run` on a machine without a desktop: serve brings
// up the private headless desktop with the fixture app and says so; `axbus tail` in a second
// process shows the events when `axbus fixture` changes the app.
func TestServeHeadlessShowsEventsInTail(t *testing.T) {
	bin := testdaemon.Axbus(t)
	dir := t.TempDir()
	serve := exec.Command(bin, "serve", "--headless", "always", "--state-dir", dir, "--listen", "127.0.0.1:0", "--log-level", "warn")
	stdout, _ := serve.StdoutPipe()
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = serve.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- serve.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve exited with %v", err)
			}
		case <-time.After(15 * time.Second):
			_ = serve.Process.Kill()
			t.Error("serve did not stop")
		}
	}()
	sc := bufio.NewScanner(stdout)
	var banner []string
	for sc.Scan() {
		banner = append(banner, sc.Text())
		if strings.HasPrefix(strings.TrimSpace(sc.Text()), "try:") {
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	text := strings.Join(banner, "\n")
	if !strings.Contains(text, "private headless") || !strings.Contains(text, "axbus-fixture-gtk3") || !strings.Contains(text, "atspi") {
		t.Fatalf("serve does not say it runs the headless desktop with the fixture:\n%s", text)
	}

	// --all: the history first, so that the toggle is seen however long the tail takes to start
	tail := exec.Command(bin, "tail", "--state-dir", dir, "--all")
	tailOut, _ := tail.StdoutPipe()
	if err := tail.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tail.Process.Kill(); _ = tail.Wait() }()
	lines := make(chan string, 256)
	go func() {
		s := bufio.NewScanner(tailOut)
		s.Buffer(nil, 1<<20)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()

	out, err := exec.Command(bin, "fixture", "--state-dir", dir, "toggle").CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"ok"`) {
		t.Fatalf("axbus fixture toggle: %v\n%s", err, out)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("tail ended")
			}
			if strings.Contains(l, `"state_changed"`) && strings.Contains(l, "Remember me") {
				testdaemon.MustMatch(t, "event", []byte(l))
				return
			}
		case <-deadline:
			t.Fatal("tail showed no state_changed event for the toggled checkbox")
		}
	}
}
