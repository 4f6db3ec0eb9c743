package daemon

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/console"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/model"
)

// HubConsoleURLFile is where a hub with a console keeps its next URL (0600, in its state dir),
// for axbus hub console; the hub removes it when its console closes.
const HubConsoleURLFile = "console.url"

// StartHubConsole serves a hub's console on listen: its identities are web clients of the hub on
// every host (added to opts' users), the hub's WebSocket listener takes the console's origin
// alone (webSocket says where it is once the hub runs), and the next URL is kept in the state
// dir, written again each time one is spent.
func StartHubConsole(opts *embedded.HubOptions, listen, prefix string, webSocket func() string) (*HubConsoleServer, error) {
	clients, err := LoadHubClients(opts.StateDir)
	if err != nil {
		return nil, err
	}
	users, identity, err := hubConsoleUsers(opts.StateDir, prefix, clients)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(opts.StateDir, HubConsoleURLFile)
	c := &HubConsoleServer{file: file}
	c.Server, err = console.Start(console.Config{Listen: listen, WebSocket: webSocket, Identity: identity, Host: "*",
		Prefix: prefix, Redeemed: c.next})
	if err != nil {
		return nil, model.Errorf(model.CodeAddressInUse, "Give --console another loopback address, or --console '' for none.",
			"console %s: %v", listen, err)
	}
	c.next()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(c.Origin(), "http://"))
	opts.Users = append(opts.Users, users...)
	opts.WebSocket, opts.WebOrigins = "127.0.0.1:0", []string{c.Origin(), "http://localhost:" + port}
	return c, nil
}

// HubConsoleServer is a hub's console and the file of its next URL.
type HubConsoleServer struct {
	*console.Server
	file string
}

// next writes the next URL for axbus hub console.
func (c *HubConsoleServer) next() {
	_ = os.WriteFile(c.file, []byte(c.URL(api.RoleMonitor)+"\n"), 0o600)
}

// Close stops the console and removes its URL's file.
func (c *HubConsoleServer) Close() error {
	_ = os.Remove(c.file)
	return c.Server.Close()
}

// hubConsoleUsers makes the hub's console identities, one per role of consoleUsers, each a web client
// of the hub on every host (its seed kept in the hub's state dir's web/): the users to start
// the hub with, and the console's Identity. A client of hub-users.json of the same name is
// refused: the console's would take its place.
func hubConsoleUsers(dir, prefix string, clients []HubClient) ([]embedded.HubAccess, console.Identity, error) {
	seeds := map[string][]byte{}
	var users []embedded.HubAccess
	for role, name := range consoleUsers {
		if slices.ContainsFunc(clients, func(c HubClient) bool { return c.Name == name }) {
			return nil, nil, fmt.Errorf("the hub has a client %s: the console's identity has that name (remove it from %s)", name, hubUsersFile)
		}
		path := filepath.Join(dir, "web", name+".nk")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, nil, err
		}
		pub, err := embedded.LoadOrCreateSeed(path)
		if err != nil {
			return nil, nil, err
		}
		if seeds[role], err = os.ReadFile(path); err != nil {
			return nil, nil, err
		}
		publish, subscribe := HubPermissions(prefix, role, nil)
		users = append(users, embedded.HubAccess{Name: name, Nkey: pub, Publish: publish, Subscribe: subscribe, Web: true})
	}
	identity := func(role string) (string, []byte, error) {
		seed, ok := seeds[role]
		if !ok {
			return "", nil, fmt.Errorf("a console's role is monitor or agent, not %q", role)
		}
		return consoleUsers[role], seed, nil
	}
	return users, identity, nil
}
