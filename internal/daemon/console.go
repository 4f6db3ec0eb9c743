package daemon

import (
	"context"
	"net"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/console"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/model"
)

// consoleUsers are the web identities of the console's pages by role: the watching console's
// and the acting one's.
var consoleUsers = map[string]string{api.RoleMonitor: "console", api.RoleAgent: "console-agent"}

// startConsole listens for the console's page (cfg.Console) and returns the server's options
// for its WebSocket listener, which takes the page's origin alone.
func (d *Daemon) startConsole(cfg Config) ([]embedded.Option, error) {
	if cfg.Console == "" {
		return nil, nil
	}
	c, err := console.Start(console.Config{
		Listen:    cfg.Console,
		WebSocket: func() string { return d.Server.WebSocketURL() },
		Identity: func(role string) (string, []byte, error) {
			name := consoleUsers[role]
			seed, err := d.Server.WebUser(name, role)
			return name, seed, err
		},
		Host: d.Subjects.Host, Prefix: d.Subjects.Prefix,
	})
	if err != nil {
		return nil, model.Errorf(model.CodeAddressInUse, "Give --console another loopback address, or --console '' for none.",
			"console %s: %v", cfg.Console, err)
	}
	d.Console = c
	_, port, _ := net.SplitHostPort(c.Origin()[len("http://"):])
	return []embedded.Option{embedded.WithWebSocket("127.0.0.1:0", c.Origin(), "http://localhost:"+port)}, nil
}

// consoleURL is the console endpoint's operation: a fresh one-time URL for a page of the role.
func (d *Daemon) consoleURL(_ context.Context, r api.ConsoleRequest) (*api.ConsoleReply, error) {
	if d.Console == nil {
		return nil, model.Errorf(model.CodeNotSupported, "Start the daemon with its console (axbus serve --console 127.0.0.1:4229).",
			"this daemon serves no console")
	}
	role := r.Role
	if role == "" {
		role = api.RoleMonitor
	}
	if _, ok := consoleUsers[role]; !ok {
		return nil, model.Errorf(model.CodeBadRequest, "Give role monitor or agent.", "a console's role is monitor or agent, not %q", role)
	}
	return &api.ConsoleReply{URL: d.Console.URL(role)}, nil
}
