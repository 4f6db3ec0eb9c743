package console

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A token is good once and for tokenLife; past their bounds the oldest tokens and sessions go.
func TestTokensAreGoodOnceAndBounded(t *testing.T) {
	s := newSessions()
	now := time.Unix(1000, 0)
	s.now = func() time.Time { return now }
	tok := s.token("monitor")
	id, ok := s.redeem(tok)
	if !ok {
		t.Fatal("a fresh token refused")
	}
	if g, ok := s.of(id); !ok || g.role != "monitor" {
		t.Fatalf("the session: %+v %v", g, ok)
	}
	if _, ok := s.redeem(tok); ok {
		t.Fatal("a token taken twice")
	}
	old := s.token("agent")
	now = now.Add(tokenLife + time.Second)
	if _, ok := s.redeem(old); ok {
		t.Fatal("a token older than its life taken")
	}
	first := s.token("monitor")
	for range maxTokens {
		s.token("monitor")
	}
	if _, ok := s.redeem(first); ok || len(s.tokens) != maxTokens {
		t.Fatalf("past %d tokens the oldest must go: %d kept", maxTokens, len(s.tokens))
	}
	for range maxSessions + 3 {
		if _, ok := s.redeem(s.token("monitor")); !ok {
			t.Fatal("a fresh token refused")
		}
	}
	if _, ok := s.of(id); ok || len(s.byID) != maxSessions {
		t.Fatalf("past %d sessions the oldest must go: %d kept", maxSessions, len(s.byID))
	}
}

// The console answers for its own host alone (a page of another site that resolves its name to
// 127.0.0.1 gets nothing) and holds its page to its own scripts.
func TestConsoleAnswersForItsOwnHost(t *testing.T) {
	c, err := Start(Config{Listen: "127.0.0.1:0", WebSocket: func() string { return "ws://127.0.0.1:1" },
		Identity: func(string) (string, []byte, error) { return "console", []byte("SU"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for host, want := range map[string]int{"evil.example:80": http.StatusMisdirectedRequest, c.Origin()[len("http://"):]: http.StatusForbidden} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		w := httptest.NewRecorder()
		c.http.Handler.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %s: %d, want %d", host, w.Code, want)
		}
		if host != "evil.example:80" && w.Header().Get("Content-Security-Policy") == "" {
			t.Error("no content security policy")
		}
	}
	if _, err := Start(Config{Listen: "0.0.0.0:0"}); err == nil {
		t.Fatal("a console listening beyond loopback")
	}
}
