package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/model"
)

type hubCmd struct {
	Serve   hubServeCmd   `cmd:"" default:"withargs" help:"Run a hub (an embedded nats-server) that desktops join as leaf nodes."`
	Config  hubConfigCmd  `cmd:"" help:"Print the hub's configuration, for a stock nats-server."`
	Creds   hubCredsCmd   `cmd:"" help:"Add a client of the hub: a role, limited to some hosts (or all)."`
	Init    hubInitCmd    `cmd:"" help:"Make a CA and the hub's certificate, for a fleet over TLS."`
	Console hubConsoleCmd `cmd:"" help:"Print a one-time URL of the running hub's console: every host of the fleet, live in a browser."`
}

type hubInitCmd struct {
	Names []string `arg:"" optional:"" help:"the hub's host names or IP addresses, as desktops and clients reach it (loopback is always in)."`
	hubFlags
}

func (c *hubInitCmd) Run(e *env) error {
	dir, err := c.dir()
	if err != nil {
		return err
	}
	ca, cert, key, err := embedded.InitHubTLS(dir, c.Names)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "CA %s, certificate %s, key %s:\n  axbus hub --tls-cert %s --tls-key %s\n  axbus serve --hub tls://HUB:7422 --hub-nkey %s --hub-ca %s\n",
		ca, cert, key, cert, key, filepath.Join(dir, "hub-leaf.nk"), ca)
	return err
}

// hubFlags locate and shape a hub.
type hubFlags struct {
	StateDir   string `placeholder:"DIR" type:"path" help:"the hub's state dir: its credentials and clients (default: hub in the user's state dir)."`
	Listen     string `default:"${hub_listen}" placeholder:"HOST:PORT" help:"the hub's client listener."`
	LeafListen string `default:"${hub_leaf_listen}" placeholder:"HOST:PORT" help:"where desktops join (axbus serve --hub)."`
	TLSCert    string `name:"tls-cert" placeholder:"FILE" type:"existingfile" help:"TLS on both listeners with this PEM certificate (required off loopback)."`
	TLSKey     string `name:"tls-key" placeholder:"FILE" type:"existingfile" help:"the PEM private key of --tls-cert."`
	Prefix     string `default:"ax" help:"subject prefix of the hosts."`
}

func (f *hubFlags) dir() (string, error) {
	if f.StateDir != "" {
		return f.StateDir, nil
	}
	base, err := embedded.DefaultStateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "hub"), nil
}

func (f *hubFlags) options() (embedded.HubOptions, error) {
	dir, err := f.dir()
	if err != nil {
		return embedded.HubOptions{}, err
	}
	clients, err := daemon.LoadHubClients(dir)
	if err != nil {
		return embedded.HubOptions{}, err
	}
	return embedded.HubOptions{StateDir: dir, Listen: f.Listen, LeafListen: f.LeafListen, TLSCert: f.TLSCert, TLSKey: f.TLSKey,
		Users: daemon.HubUsers(f.Prefix, clients)}, nil
}

type hubServeCmd struct {
	hubFlags
	Console string `default:"127.0.0.1:0" placeholder:"HOST:PORT" help:"the hub's web console, on loopback (port 0: a free one; '' for none): every host of the fleet; axbus hub console prints a fresh URL."`
}

func (c *hubServeCmd) Run(e *env) error {
	opts, err := c.options()
	if err != nil {
		return err
	}
	var h *embedded.Hub
	var web *daemon.HubConsoleServer
	if c.Console != "" {
		web, err = daemon.StartHubConsole(&opts, c.Console, c.Prefix, func() string { return h.WebSocketURL() })
		if err != nil {
			return err
		}
		defer web.Close()
	}
	if h, err = embedded.StartHub(opts); err != nil {
		return err
	}
	defer h.Shutdown()
	fmt.Fprintf(e.stdout, "axbus hub: clients on %s (admin credential %s), desktops join at %s:\n  axbus serve --hub %s --hub-nkey %s\n",
		h.ClientURL, h.AdminSeedFile, h.LeafURL, h.LeafURL, h.LeafSeedFile)
	if web != nil {
		fmt.Fprintf(e.stdout, "  console: %s (good once; a new one: axbus hub console)\n", web.URL(api.RoleMonitor))
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	select {
	case <-sig:
	case <-e.ctx.Done():
	}
	return nil
}

type hubConsoleCmd struct{ hubFlags }

// Run prints the running hub's next console URL.
func (c *hubConsoleCmd) Run(e *env) error {
	dir, err := c.dir()
	if err != nil {
		return err
	}
	url, err := os.ReadFile(filepath.Join(dir, daemon.HubConsoleURLFile))
	if err != nil {
		return model.Errorf(model.CodeUnavailable, "Start the hub (axbus hub) with its console.", "no hub console here: %v", err)
	}
	_, err = fmt.Fprint(e.stdout, string(url))
	return err
}

type hubConfigCmd struct{ hubFlags }

func (c *hubConfigCmd) Run(e *env) error {
	opts, err := c.options()
	if err != nil {
		return err
	}
	_, adminPub, _, leafPub, err := embedded.HubSeeds(opts.StateDir)
	if err != nil {
		return err
	}
	text, err := embedded.HubConfig(opts, adminPub, leafPub)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, text)
	return err
}

type hubCredsCmd struct {
	Name  string   `arg:"" help:"the client's name."`
	Role  string   `enum:"monitor,agent,admin" default:"agent" help:"what it may do: monitor observes, agent acts too, admin manages."`
	Hosts []string `placeholder:"HOST" help:"the hosts it may reach, comma-separated (default: all)."`
	hubFlags
}

func (c *hubCredsCmd) Run(e *env) error {
	dir, err := c.dir()
	if err != nil {
		return err
	}
	seed, err := daemon.AddHubClient(dir, c.Name, c.Role, c.Hosts)
	if err != nil {
		return err
	}
	hosts := "every host"
	if len(c.Hosts) > 0 {
		hosts = strings.Join(c.Hosts, ", ")
	}
	_, err = fmt.Fprintf(e.stdout, "%s (%s, on %s): credential %s; the hub takes it when it starts next\n", c.Name, c.Role, hosts, seed)
	return err
}
