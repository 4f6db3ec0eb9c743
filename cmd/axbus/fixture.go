package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/headless"
)

type fixtureCmd struct {
	Cmd      string   `arg:"" help:"the request: toggle, set_text, state, save, ... (see fixtures/README.md)."`
	Args     []string `arg:"" optional:"" placeholder:"KEY=VALUE" help:"the request's fields; a value is JSON when it parses as JSON, a string otherwise."`
	StateDir string   `placeholder:"DIR" type:"path" help:"state dir of the daemon that runs the headless desktop."`
	JSON     bool     `help:"print JSON even on a terminal."`
}

// Run sends one control request to the GTK fixture app of the daemon's private headless desktop
// (`axbus serve --headless`): a way to change the app from a second terminal and watch the
// events, before and besides axbus's own commands.
func (c *fixtureCmd) Run(e *env) error {
	req := map[string]any{"cmd": c.Cmd}
	for _, kv := range c.Args {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return model.Errorf(model.CodeBadRequest, "Give the request's fields as KEY=VALUE, e.g. text=hello.", "%q is not KEY=VALUE", kv)
		}
		var parsed any
		if json.Unmarshal([]byte(v), &parsed) != nil {
			parsed = v // a bare string
		}
		req[k] = parsed
	}
	info, err := embedded.Discover(c.StateDir)
	if err != nil {
		return err
	}
	socks, _ := filepath.Glob(filepath.Join(info.StateDir, "headless", "*.sock"))
	if len(socks) == 0 {
		return model.Errorf(model.CodeUnavailable, "Start the daemon with axbus serve --headless always.",
			"no fixture app: the daemon of %s runs no headless desktop", info.StateDir)
	}
	reply, err := fixtureCall(e.ctx, socks[0], req)
	if err != nil {
		return err
	}
	return e.print(c.JSON, reply)
}

// controlFixture sends a request to a fixture app's control socket and says whether it failed.
func controlFixture(ctx context.Context, sock string, req map[string]any) error {
	_, err := fixtureCall(ctx, sock, req)
	return err
}

// fixtureCall sends one request to a fixture app's control socket and returns its reply.
func fixtureCall(ctx context.Context, sock string, req map[string]any) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	raw, err := headless.FixtureControl(ctx, sock, req)
	if err != nil {
		return nil, err
	}
	var reply any
	return reply, json.Unmarshal(raw, &reply)
}
