package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
)

// HubPermissions are what a hub's client of role may publish and subscribe to, on hosts (none:
// every host): the requests of the endpoints its role may call, service discovery, the
// hosts' event history in their JetStream domains, and their events, diffs, action records,
// lease changes and replays' progress. The hub enforces them before a request leaves it; each host then applies the
// role the hub's link has there.
func HubPermissions(prefix, role string, hosts []string) (publish, subscribe []string) {
	if prefix == "" {
		prefix = api.DefaultPrefix
	}
	if len(hosts) == 0 {
		hosts = []string{"*"}
	}
	publish = []string{"$SRV.>"}
	subscribe = []string{"_INBOX.>"}
	for _, h := range hosts {
		base := prefix + "." + h + "."
		for _, ep := range api.Endpoints {
			if ep.Kind.May(role) {
				publish = append(publish, base+"api."+ep.Name)
			}
		}
		// Every consumer call: the host makes those of its link's role through its daemon.
		for _, c := range append(append(historyAPI([]string{"*"}, "*", role), consumerCreationCalls("*")...), ownedConsumerCalls("*")...) {
			publish = append(publish, strings.Replace(c, "$JS.API.", "$JS."+h+".API.", 1))
		}
		subscribe = append(subscribe, base+"evt.>", base+"snap.>", base+"act.>", base+"lease.>", base+"flow.>")
	}
	return publish, subscribe
}

// HubClient is a client of a hub: its role, and the hosts it may reach (none: all).
type HubClient struct {
	Name  string   `json:"name"`
	Role  string   `json:"role"`
	Nkey  string   `json:"nkey"`
	Hosts []string `json:"hosts,omitempty"`
}

const hubUsersFile = "hub-users.json"

// LoadHubClients reads the hub's clients (none when there is no file yet).
func LoadHubClients(dir string) ([]HubClient, error) {
	b, err := os.ReadFile(filepath.Join(dir, hubUsersFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []HubClient
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", hubUsersFile, err)
	}
	return out, nil
}

// AddHubClient makes a credential (NAME.nk in dir) for a client of the hub with role, on hosts,
// and records it; the hub takes it at its next start. It returns the credential's file.
func AddHubClient(dir, name, role string, hosts []string) (string, error) {
	if err := embedded.CheckUserName(name); err != nil {
		return "", model.Errorf(model.CodeBadRequest, "Name it with lower-case letters, digits, - and _.", "%v", err)
	}
	if !slices.Contains(api.Roles, role) {
		return "", model.Errorf(model.CodeBadRequest, "Give --role monitor, agent or admin.", "unknown role %q", role)
	}
	clients, err := LoadHubClients(dir)
	if err != nil {
		return "", err
	}
	if slices.ContainsFunc(clients, func(c HubClient) bool { return c.Name == name }) {
		return "", model.Errorf(model.CodeBadRequest, "Choose another name.", "the hub has a client %s already", name)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	seed := filepath.Join(dir, name+".nk")
	pub, err := embedded.LoadOrCreateSeed(seed)
	if err != nil {
		return "", err
	}
	clients = append(clients, HubClient{Name: name, Role: role, Nkey: pub, Hosts: hosts})
	b, _ := json.MarshalIndent(clients, "", "  ")
	return seed, os.WriteFile(filepath.Join(dir, hubUsersFile), append(b, '\n'), 0o600)
}

// HubUsers are the hub's clients with their permissions, for embedded.HubOptions.
func HubUsers(prefix string, clients []HubClient) []embedded.HubAccess {
	out := make([]embedded.HubAccess, len(clients))
	for i, c := range clients {
		pub, sub := HubPermissions(prefix, c.Role, c.Hosts)
		out[i] = embedded.HubAccess{Name: c.Name, Nkey: c.Nkey, Publish: pub, Subscribe: sub}
	}
	return out
}
