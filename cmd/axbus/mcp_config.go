package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
)

// mcpConfigCmd is `axbus mcp config`: the exact JSON that adds this axbus to MCP clients, with
// the binary's absolute path and the connection flags given (the state dir by default): a
// client starts its servers in an environment of its own, where the defaults may differ.
type mcpConfigCmd struct {
	Client string `placeholder:"NAME" enum:"all,${mcp_clients}" default:"all" help:"one client's alone (${mcp_clients}), or all, each under a line naming its file."`
	connFlags
}

// mcpEntry is a server in a client's configuration: how to start it.
type mcpEntry struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// mcpHost is one MCP client's configuration file: where it is and how it holds a server.
type mcpHost struct {
	name, file string
	// key is the object servers are listed in; typed clients want "type": "stdio".
	key   string
	typed bool
}

// mcpHosts is the table of the clients `axbus mcp config` knows.
var mcpHosts = []mcpHost{
	{name: "claude-desktop", file: "claude_desktop_config.json (Claude Desktop: Settings, Developer, Edit Config)", key: "mcpServers"},
	{name: "claude-code", file: ".mcp.json in the project (or: claude mcp add-json axbus '<the axbus object>')", key: "mcpServers", typed: true},
	{name: "vscode", file: ".vscode/mcp.json in the workspace", key: "servers", typed: true},
	{name: "cursor", file: "~/.cursor/mcp.json (or .cursor/mcp.json in the project)", key: "mcpServers"},
}

// mcpHostNames is the enum of --client.
func mcpHostNames() string {
	names := ""
	for i, c := range mcpHosts {
		if i > 0 {
			names += ","
		}
		names += c.name
	}
	return names
}

func (c *mcpConfigCmd) Run(e *env) error {
	server, err := c.server()
	if err != nil {
		return err
	}
	for _, cl := range mcpHosts {
		if c.Client != "all" && c.Client != cl.name {
			continue
		}
		entry := mcpEntry{Command: server[0], Args: server[1:]}
		if cl.typed {
			entry.Type = "stdio"
		}
		out, err := json.MarshalIndent(map[string]any{cl.key: map[string]any{"axbus": entry}}, "", "  ")
		if err != nil {
			return err
		}
		if c.Client == "all" {
			fmt.Fprintf(e.stdout, "// %s: %s\n", cl.name, cl.file)
		}
		fmt.Fprintf(e.stdout, "%s\n", out)
	}
	return nil
}

// server is the command line that runs this binary's MCP server on the connection the flags
// name: the server and its credentials when given, else the local daemon's state dir.
func (c *mcpConfigCmd) server() ([]string, error) {
	bin, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if resolved, err := filepath.EvalSymlinks(bin); err == nil {
		bin = resolved
	}
	args := []string{bin, "mcp"}
	flag := func(name, value string, path bool) {
		if value == "" {
			return
		}
		if path {
			if abs, err := filepath.Abs(value); err == nil {
				value = abs
			}
		}
		args = append(args, name, value)
	}
	target, err := c.resolve()
	if err != nil {
		return nil, err
	}
	if target.url == "" {
		dir := c.StateDir
		if dir == "" {
			if dir, err = embedded.DefaultStateDir(); err != nil {
				return nil, err
			}
		}
		flag("--state-dir", dir, true)
	}
	flag("--context", target.contextName, false) // the selected one too: the client's environment is not this shell's
	flag("--server", c.Server, false)
	flag("--creds", c.Creds, true)
	flag("--nkey", c.Nkey, true)
	flag("--tls-ca", c.TLSCA, true)
	flag("--tls-cert", c.TLSCert, true)
	flag("--tls-key", c.TLSKey, true)
	flag("--host", c.Host, false)
	if c.Prefix != api.DefaultPrefix {
		flag("--prefix", c.Prefix, false)
	}
	if c.Timeout > 0 {
		flag("--timeout", c.Timeout.String(), false)
	}
	return args, nil
}
