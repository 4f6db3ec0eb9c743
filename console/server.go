package console

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

//go:embed web/index.html web/console.js web/console.css web/nats.js
var assets embed.FS

// Identity gives the page of a session of role its NATS identity: the user's name and its
// nkey seed, made once and kept (a web user: it may connect over the WebSocket listener only).
type Identity func(role string) (name string, seed []byte, err error)

// Config is what a console serves.
type Config struct {
	// Listen is the page's address; loopback only.
	Listen string
	// WebSocket is the server's WebSocket URL, asked when a page starts its session.
	WebSocket func() string
	Identity  Identity
	// Host and Prefix are the daemon's: the page's subjects are <prefix>.<host>.... A hub's
	// console has the host "*": the page reaches every host of the fleet.
	Host, Prefix string
	// Redeemed, when set, is told each time a URL's token is spent (a hub mints the next one).
	Redeemed func()
}

// Server serves the console's page.
type Server struct {
	cfg      Config
	listener net.Listener
	http     *http.Server
	origin   string
	sessions *sessions
	done     sync.WaitGroup
}

// Start listens on cfg.Listen (loopback only) and serves the page until Close.
func Start(cfg Config) (*Server, error) {
	host, _, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, errors.New("the console listens on loopback only (127.0.0.1, ::1 or localhost)")
	}
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, listener: l, origin: "http://" + l.Addr().String(), sessions: newSessions()}
	s.http = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 5 * time.Second}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		_ = s.http.Serve(l) // ends with Close
	}()
	return s, nil
}

// Origin is the page's origin (http://127.0.0.1:port): the one the WebSocket listener takes.
func (s *Server) Origin() string { return s.origin }

// URL is a fresh one-time URL that opens a console session of role.
func (s *Server) URL(role string) string {
	return s.origin + "/?token=" + s.sessions.token(role)
}

// Close stops serving.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := s.http.Shutdown(ctx)
	s.done.Wait()
	return err
}

func (s *Server) routes() http.Handler {
	web, _ := fs.Sub(assets, "web") // the embedded tree has it
	files := http.FileServerFS(web)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /session", s.session)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if token := r.URL.Query().Get("token"); token != "" {
			s.open(w, r, token)
			return
		}
		if _, ok := s.sessionOf(r); !ok {
			refuse(w)
			return
		}
		files.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /{file}", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.sessionOf(r); !ok {
			refuse(w)
			return
		}
		files.ServeHTTP(w, r)
	})
	return s.guard(mux)
}

// guard refuses requests for another host (a DNS rebinding page's) and sets what a browser
// must hold the page to: its own scripts and this server's WebSocket only, no frames, no
// referrer (the token is in the first URL).
func (s *Server) guard(next http.Handler) http.Handler {
	own := strings.TrimPrefix(s.origin, "http://")
	_, port, _ := net.SplitHostPort(own)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != own && r.Host != "localhost:"+port {
			http.Error(w, "BAD_REQUEST: this console answers only as "+own, http.StatusMisdirectedRequest)
			return
		}
		h := w.Header()
		ws := ""
		if s.cfg.WebSocket != nil {
			ws = " " + s.cfg.WebSocket()
		}
		h.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'"+ws+"; img-src 'self' blob: data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// refuse answers a request without a session.
func refuse(w http.ResponseWriter) {
	http.Error(w, "PERMISSION_DENIED: open the console by the URL `axbus console` prints (its token is good once)", http.StatusForbidden)
}
