package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/mcpserver"
)

// mcpCmd is `axbus mcp`: the server (its default) and the configuration that adds it to a client.
type mcpCmd struct {
	Serve  mcpServeCmd  `cmd:"" default:"withargs" help:"Serve MCP on stdio, or streamable HTTP on loopback."`
	Config mcpConfigCmd `cmd:"" help:"Print the JSON that adds this axbus to an MCP client (Claude Desktop, Claude Code, VS Code, Cursor)."`
}

type mcpServeCmd struct {
	HTTP      string `placeholder:"ADDR" help:"serve streamable HTTP on this loopback address (127.0.0.1:8765) instead of stdio; every request needs the bearer token."`
	TokenFile string `placeholder:"FILE" type:"path" help:"the HTTP bearer token's file (mode 0600): read if it exists, made otherwise (default: mcp.token in the state dir)."`
	connFlags
}

// Run serves MCP at once, with or without a daemon: its tools answer UNAVAILABLE until the
// daemon answers, and the connection, once made, reconnects by itself when the daemon restarts.
func (c *mcpServeCmd) Run(e *env) error {
	s, err := mcpserver.New()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(e.ctx)
	connected := make(chan *client.Client, 1)
	go func() {
		var cl *client.Client
		_ = s.Connect(ctx, func(ctx context.Context) (*client.Client, error) {
			var err error
			cl, _, err = c.dial(ctx, nats.MaxReconnects(-1), nats.IgnoreAuthErrorAbort())
			return cl, err
		})
		connected <- cl // nil when ctx ended first
	}()
	defer func() {
		cancel()
		if cl := <-connected; cl != nil {
			cl.Conn().Close()
		}
	}()
	if c.HTTP == "" {
		err = s.MCP().Run(e.ctx, &mcp.StdioTransport{})
	} else {
		err = c.serveHTTP(e.ctx, e, s)
	}
	if err != nil && !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "EOF") {
		return err
	}
	return nil // stdin closed, or a signal: a clean end
}

// serveHTTP serves streamable HTTP on a loopback address, every request checked for the token.
func (c *mcpServeCmd) serveHTTP(ctx context.Context, e *env, s *mcpserver.Server) error {
	host, _, err := net.SplitHostPort(c.HTTP)
	if ip := net.ParseIP(host); err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		return model.Errorf(model.CodeBadRequest, "Give a loopback address, e.g. --http 127.0.0.1:8765.",
			"%q is not a loopback address: the MCP server's HTTP transport serves this machine only", c.HTTP)
	}
	tokenFile, token, err := c.token()
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", c.HTTP)
	if err != nil {
		return model.Errorf(model.CodeAddressInUse, "Choose another port.", "listen on %s: %v", c.HTTP, err)
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.MCP() }, nil)
	srv := &http.Server{Handler: bearer(token, handler), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stderr, "axbus mcp: streamable HTTP on http://%s/ (Authorization: Bearer <the token in %s>)\n", l.Addr(), tokenFile)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// token reads the bearer token, or makes one in a file only the user can read.
func (c *mcpServeCmd) token() (file, token string, err error) {
	file = c.TokenFile
	if file == "" {
		dir := c.StateDir
		if dir == "" {
			if dir, err = embedded.DefaultStateDir(); err != nil {
				return "", "", err
			}
		}
		file = filepath.Join(dir, "mcp.token")
	}
	if b, err := os.ReadFile(file); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return file, strings.TrimSpace(string(b)), nil
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", "", err
	}
	token = hex.EncodeToString(raw[:])
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		return "", "", model.Errorf(model.CodeInternal, "Give a writable --token-file.", "writing the token: %v", err)
	}
	return file, token, nil
}

// bearer refuses a request without the token (401), comparing in constant time.
func bearer(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="axbus"`)
			http.Error(w, "axbus: UNAUTHORIZED: give the bearer token of the token file (Authorization: Bearer ...)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
