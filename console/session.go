package console

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// The bounds of what a console holds: tokens not yet used and sessions, the oldest dropped past
// their count; a token is good once and for tokenLife.
const (
	maxTokens   = 16
	maxSessions = 16
	tokenLife   = 10 * time.Minute
	cookieName  = "axbus_console"
)

// sessions are the tokens handed out and the sessions they became, each with its role.
type sessions struct {
	mu      sync.Mutex
	tokens  map[string]grant
	byID    map[string]grant
	now     func() time.Time
	counter uint64
}

// grant is a role given at a time; n orders grants to drop the oldest.
type grant struct {
	role string
	at   time.Time
	n    uint64
}

func newSessions() *sessions {
	return &sessions{tokens: map[string]grant{}, byID: map[string]grant{}, now: time.Now}
}

// token is a new one-time token for a session of role.
func (s *sessions) token(role string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := random()
	s.add(s.tokens, maxTokens, t, role)
	return t
}

// add puts key in m, dropping the oldest past max.
func (s *sessions) add(m map[string]grant, max int, key, role string) {
	s.counter++
	m[key] = grant{role: role, at: s.now(), n: s.counter}
	for len(m) > max {
		oldest := ""
		for k, g := range m {
			if oldest == "" || g.n < m[oldest].n {
				oldest = k
			}
		}
		delete(m, oldest)
	}
}

// redeem spends token for a new session's id.
func (s *sessions) redeem(token string) (id string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.tokens[token]
	delete(s.tokens, token)
	if !ok || s.now().Sub(g.at) > tokenLife {
		return "", false
	}
	id = random()
	s.add(s.byID, maxSessions, id, g.role)
	return id, true
}

func (s *sessions) of(id string) (grant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.byID[id]
	return g, ok
}

func random() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails
	return hex.EncodeToString(b)
}

// open spends a URL's token: the session's cookie is set and the page loaded without the token
// in its address.
func (s *Server) open(w http.ResponseWriter, r *http.Request, token string) {
	id, ok := s.sessions.redeem(token)
	if !ok {
		http.Error(w, "PERMISSION_DENIED: this console URL was used or is older than 10 minutes: run `axbus console` for a new one", http.StatusForbidden)
		return
	}
	if s.cfg.Redeemed != nil {
		s.cfg.Redeemed()
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) sessionOf(r *http.Request) (grant, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return grant{}, false
	}
	return s.sessions.of(c.Value)
}

// Session is what a page's session gives it: where and as whom it connects.
type Session struct {
	WebSocket string `json:"websocket"`
	Name      string `json:"name"`
	Role      string `json:"role"`
	Seed      string `json:"seed"`
	Host      string `json:"host"`
	Prefix    string `json:"prefix"`
}

// session answers a page's session: its identity's key, made once for its role.
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	g, ok := s.sessionOf(r)
	if !ok {
		refuse(w)
		return
	}
	name, seed, err := s.cfg.Identity(g.role)
	if err != nil {
		http.Error(w, "INTERNAL: the console's identity: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(Session{WebSocket: s.cfg.WebSocket(), Name: name, Role: g.role, Seed: string(seed),
		Host: s.cfg.Host, Prefix: s.cfg.Prefix})
}
