package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeFixture listens on a socket and answers each request line with what reply makes of it.
func fakeFixture(t *testing.T, reply func(req map[string]any) string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ctl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	sock := filepath.Join(dir, "f.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { _ = ln.Close(); <-done })
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			line, err := bufio.NewReader(c).ReadBytes('\n')
			var req map[string]any
			if err == nil && json.Unmarshal(line, &req) == nil {
				if r := reply(req); r != "" {
					_, _ = c.Write([]byte(r + "\n"))
				} else {
					time.Sleep(300 * time.Millisecond) // an app that does not answer
				}
			}
			_ = c.Close()
		}
	}()
	return sock
}

func TestFixtureControl(t *testing.T) {
	sock := fakeFixture(t, func(req map[string]any) string {
		switch req["cmd"] {
		case "state":
			return `{"ok":true,"toolkit":"gtk3","t_ns":1}`
		case "bad":
			return `{"ok":false,"error":"unknown command"}`
		case "garbage":
			return `not json`
		}
		return ""
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	r, err := FixtureControl(ctx, sock, map[string]any{"cmd": "state"})
	if err != nil || string(r) != `{"ok":true,"toolkit":"gtk3","t_ns":1}` {
		t.Fatalf("state: %s, %v", r, err)
	}
	// A refusal is the app's reply, not a failure of the exchange.
	if r, err := FixtureControl(ctx, sock, map[string]any{"cmd": "bad"}); err != nil || string(r) != `{"ok":false,"error":"unknown command"}` {
		t.Fatalf("refused: %s, %v", r, err)
	}
	if _, err := FixtureControl(ctx, sock, map[string]any{"cmd": "garbage"}); err == nil {
		t.Fatal("a reply that is not JSON passed")
	}
	short, cancelShort := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancelShort()
	if _, err := FixtureControl(short, sock, map[string]any{"cmd": "hang"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("an app that does not answer: %v, want the context's deadline", err)
	}

	// App.Do speaks through the same client and makes a refusal an error.
	a := &App{Kind: KindGTK3, PID: 1, Socket: sock}
	var ce *ControlError
	if _, err := a.Do(ctx, map[string]any{"cmd": "bad"}); !errors.As(err, &ce) || ce.Message != "unknown command" {
		t.Fatalf("Do refused: %v", err)
	}
	if st, err := a.State(ctx); err != nil || st.Toolkit != "gtk3" || st.T != 1 {
		t.Fatalf("State: %+v, %v", st, err)
	}
}
