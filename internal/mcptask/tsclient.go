package mcptask

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// TSClient is a session of the TypeScript SDK's MCP client (fixtures/mcp/session.mjs under node)
// with a server it spawned: a client nobody here wrote.
type TSClient struct {
	SDKVersion string
	cmd        *exec.Cmd
	in         io.WriteCloser
	out        *bufio.Reader
	stderr     *lockedWriter // what the client and the server said on stderr
	mu         sync.Mutex    // one call at a time: the lines answer in turn
}

// StartTS starts node on root's fixtures/mcp/session.mjs with the SDK of modules (a node_modules
// directory), spawning server (a command and its arguments) as the MCP server, and returns once
// the client has initialized its session.
func StartTS(ctx context.Context, node, modules, root string, server ...string) (*TSClient, error) {
	cmd := exec.Command(node, append([]string{filepath.Join(root, "fixtures", "mcp", "session.mjs"), "--"}, server...)...)
	cmd.Env = append(os.Environ(), "AXBUS_NODE_MODULES="+modules)
	cmd.WaitDelay = 5 * time.Second
	c := &TSClient{cmd: cmd, stderr: &lockedWriter{}}
	cmd.Stderr = c.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c.in, c.out = in, bufio.NewReaderSize(out, 1<<20)
	var hello struct {
		SDKVersion string `json:"sdkVersion"`
	}
	if err := c.line(ctx, &hello); err != nil {
		_ = c.Close()
		return nil, err
	}
	c.SDKVersion = hello.SDKVersion
	return c, nil
}

// Call makes one tool call: a Caller.
func (c *TSClient) Call(ctx context.Context, tool string, args map[string]any) (Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	req, err := json.Marshal(map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return Result{}, err
	}
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		return Result{}, fmt.Errorf("session.mjs: %w (stderr: %s)", err, c.stderr)
	}
	var answer struct {
		MS     float64    `json:"ms"`
		Error  string     `json:"error"`
		Result WireResult `json:"result"`
	}
	if err := c.line(ctx, &answer); err != nil {
		return Result{}, err
	}
	if answer.Error != "" {
		return Result{}, fmt.Errorf("the client: %s", answer.Error)
	}
	return Result{Text: answer.Result.Text(), Structured: answer.Result.StructuredContent, IsError: answer.Result.IsError, MS: answer.MS}, nil
}

// WireResult is a CallToolResult as the TypeScript SDK's client returns it, in JSON: what the
// fixture clients of fixtures/mcp print.
type WireResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// Text is the result's text contents, joined by newlines.
func (r *WireResult) Text() string {
	var text []string
	for _, c := range r.Content {
		if c.Type == "text" {
			text = append(text, c.Text)
		}
	}
	return strings.Join(text, "\n")
}

// line reads the client's next line into v, or fails when ctx ends first (the client is then
// killed: a line half read cannot be resumed).
func (c *TSClient) line(ctx context.Context, v any) error {
	got := make(chan error, 1)
	go func() {
		b, err := c.out.ReadBytes('\n')
		if err == nil {
			err = json.Unmarshal(b, v)
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			return fmt.Errorf("session.mjs: %w (stderr: %s)", err, c.stderr)
		}
		return nil
	case <-ctx.Done():
		_ = c.cmd.Process.Kill()
		return fmt.Errorf("session.mjs: %w (stderr: %s)", ctx.Err(), c.stderr)
	}
}

// Close ends the session: the client closes it at the end of its input and exits.
func (c *TSClient) Close() error {
	_ = c.in.Close()
	err := c.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("session.mjs: %w (stderr: %s)", err, c.stderr)
	}
	return err
}

// lockedWriter lets the process's stderr copier and a reader of the log share a builder.
type lockedWriter struct {
	mu sync.Mutex
	w  strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}
