package embedded

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/url"
	"os"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// HubUser is the user, on a host, of the requests that come from the hub: the leaf connection's
// account. Its role (Leaf.Role) is what the hub may do on this host; the hub itself limits each
// of its own users further, by subject, before a request leaves it.
const HubUser = "hub"

// Leaf is the hub a daemon joins as a leaf node.
type Leaf struct {
	// URL is the hub's leaf listener: tls://host:7422, or nats:// on loopback only.
	URL string
	// SeedFile is the hub's leaf credential, an nkey seed (axbus hub writes hub-leaf.nk).
	SeedFile string
	// CAFile is the CA that signed the hub's certificate, for tls:// URLs.
	CAFile string
	// Role is the role the hub's requests have on this host.
	Role string
}

// WithLeaf joins the hub as a leaf node: the hub's clients reach this daemon's API, events and
// diffs under ax.<host>.>, as the user HubUser with the leaf's role. The server reconnects by
// itself when the hub goes and comes back; local clients are served throughout.
func WithLeaf(l Leaf) Option { return func(c *config) { c.leaf = &l } }

// leafRemote is the remote of the leaf, and the user its account stands for.
func leafRemote(l *Leaf) (*server.RemoteLeafOpts, User, error) {
	u, err := url.Parse(l.URL)
	if err != nil || u.Host == "" || (u.Scheme != "nats" && u.Scheme != "tls") {
		return nil, User{}, fmt.Errorf("hub URL %q: give nats://HOST:PORT (loopback) or tls://HOST:PORT", l.URL)
	}
	secure := u.Scheme == "tls" || l.CAFile != ""
	if ip := net.ParseIP(u.Hostname()); !secure && u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, User{}, fmt.Errorf("hub URL %q: a link to another machine must use TLS (tls://, with the hub's CA)", l.URL)
	}
	seed, err := os.ReadFile(l.SeedFile)
	if err != nil {
		return nil, User{}, fmt.Errorf("hub credential: %w", err)
	}
	kp, err := nkeys.ParseDecoratedUserNKey(seed)
	if err != nil {
		return nil, User{}, fmt.Errorf("hub credential %s: %w", l.SeedFile, err)
	}
	defer kp.Wipe()
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, User{}, err
	}
	raw, err := kp.Seed()
	if err != nil {
		return nil, User{}, err
	}
	remote := &server.RemoteLeafOpts{URLs: []*url.URL{u}, LocalAccount: HubUser, Nkey: string(raw)}
	if secure {
		remote.TLS = true
		remote.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, ServerName: u.Hostname()}
		if l.CAFile != "" {
			pem, err := os.ReadFile(l.CAFile)
			if err != nil {
				return nil, User{}, fmt.Errorf("hub CA: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return nil, User{}, fmt.Errorf("hub CA %s: no certificate in it", l.CAFile)
			}
			remote.TLSConfig.RootCAs = pool
		}
	}
	return remote, User{Name: HubUser, Role: l.Role, Nkey: pub}, nil
}
