package embedded

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// A hub joins the daemons of many desktops: each daemon's server is a leaf node of it, and its
// clients reach every host under ax.<host>.>. It is a stock nats-server, configured by
// HubConfig's text: `axbus hub` runs it embedded, `axbus hub config` prints it for one of your own.

// Defaults of a hub.
const (
	DefaultHubListen     = "127.0.0.1:4230"
	DefaultHubLeafListen = "127.0.0.1:7422"
	// FleetAccount is the hub's account of its clients and of the hosts' leaf connections.
	FleetAccount = "FLEET"
	hubAdminFile = "hub-admin.nk"
	hubLeafFile  = "hub-leaf.nk"
)

// HubOptions configure a hub.
type HubOptions struct {
	// StateDir holds the hub's credentials: hub-admin.nk (a client with every right) and
	// hub-leaf.nk (what hosts join with), each made when missing.
	StateDir string
	// Listen and LeafListen are the client and leaf listeners (defaults 127.0.0.1:4230, :7422).
	Listen, LeafListen string
	// TLSCert and TLSKey (PEM files) put both listeners on TLS; a listener other machines can
	// reach needs them.
	TLSCert, TLSKey string
	// Users are the hub's other clients, each limited to its subjects.
	Users  []HubAccess
	Logger *slog.Logger
	// WebSocket is the WebSocket listener's address for the console's page (port 0: a free
	// one; "": none), WebOrigins the pages it takes; its web users connect there alone.
	WebSocket  string
	WebOrigins []string
}

// HubAccess is a client of the hub with what it may publish and subscribe to (allow lists). A
// web client (the console's page) connects over the WebSocket listener alone.
type HubAccess struct {
	Name, Nkey         string
	Publish, Subscribe []string
	Web                bool
}

// Hub is a running hub.
type Hub struct {
	ns                          *server.Server
	web                         string
	ClientURL, LeafURL          string
	AdminSeedFile, LeafSeedFile string
}

// HubConfig is the nats-server configuration of a hub whose admin and leaf credentials have
// these public keys.
func HubConfig(o HubOptions, adminPub, leafPub string) (string, error) {
	o = o.withDefaults()
	for _, addr := range []string{o.Listen, o.LeafListen} {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return "", fmt.Errorf("listen address %q: %w", addr, err)
		}
		if ip := net.ParseIP(host); o.TLSCert == "" && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return "", fmt.Errorf("%s is reachable from other machines: give the hub a certificate (axbus hub init makes one)", addr)
		}
	}
	var b strings.Builder
	tlsBlock := ""
	if o.TLSCert != "" {
		tlsBlock = fmt.Sprintf("  tls: {cert_file: %q, key_file: %q}\n", o.TLSCert, o.TLSKey)
	}
	fmt.Fprintf(&b, "server_name: axbus-hub\nlisten: %q\n", o.Listen)
	if tlsBlock != "" {
		b.WriteString(strings.TrimPrefix(tlsBlock, "  "))
	}
	fmt.Fprintf(&b, "leafnodes: {\n  listen: %q\n%s}\n", o.LeafListen, tlsBlock)
	fmt.Fprintf(&b, "accounts: {\n  %s: {\n    users: [\n", FleetAccount)
	fmt.Fprintf(&b, "      {nkey: %q, allowed_connection_types: [\"STANDARD\"]}\n", adminPub)
	fmt.Fprintf(&b, "      {nkey: %q, allowed_connection_types: [\"LEAFNODE\"]}\n", leafPub)
	for _, u := range o.Users {
		fmt.Fprintf(&b, "      {nkey: %q, allowed_connection_types: [%q], permissions: {publish: {allow: %s}, subscribe: {allow: %s}}}\n",
			u.Nkey, User{Web: u.Web}.connectionType(), quoteList(u.Publish), quoteList(u.Subscribe))
	}
	b.WriteString("    ]\n  }\n}\n")
	if o.WebSocket != "" {
		host, port, err := net.SplitHostPort(o.WebSocket)
		if err != nil {
			return "", fmt.Errorf("websocket listen address %q: %w", o.WebSocket, err)
		}
		if ip := net.ParseIP(host); o.TLSCert == "" && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return "", fmt.Errorf("%s is reachable from other machines: give the hub a certificate (axbus hub init makes one)", o.WebSocket)
		}
		if port == "0" {
			port = "-1" // a free one
		}
		fmt.Fprintf(&b, "websocket: {\n  host: %q\n  port: %s\n  allowed_origins: %s\n", host, port, quoteList(o.WebOrigins))
		if tlsBlock != "" {
			b.WriteString(tlsBlock)
		} else {
			b.WriteString("  no_tls: true\n")
		}
		b.WriteString("}\n")
	}
	return b.String(), nil
}

func (o HubOptions) withDefaults() HubOptions {
	if o.Listen == "" {
		o.Listen = DefaultHubListen
	}
	if o.LeafListen == "" {
		o.LeafListen = DefaultHubLeafListen
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// HubSeeds returns the hub's admin and leaf seed files in dir with their public keys, made
// when missing.
func HubSeeds(dir string) (adminFile, adminPub, leafFile, leafPub string, err error) {
	adminFile, leafFile = filepath.Join(dir, hubAdminFile), filepath.Join(dir, hubLeafFile)
	if adminPub, err = loadOrCreateSeed(adminFile); err != nil {
		return
	}
	leafPub, err = loadOrCreateSeed(leafFile)
	return
}

// StartHub runs a hub until Shutdown.
func StartHub(o HubOptions) (*Hub, error) {
	o = o.withDefaults()
	if o.StateDir == "" {
		return nil, errors.New("a hub needs a state dir")
	}
	leafAddr, err := freeIfZero(o.LeafListen) // nats-server does not say which port it took for leaves
	if err != nil {
		return nil, err
	}
	o.LeafListen = leafAddr
	if host, port, err := net.SplitHostPort(o.Listen); err == nil && port == "0" {
		o.Listen = net.JoinHostPort(host, "-1") // a free one: port 0 is 4222 to nats-server
	}
	if err := ensureStateDir(o.StateDir, o.Logger); err != nil {
		return nil, err
	}
	adminFile, adminPub, leafFile, leafPub, err := HubSeeds(o.StateDir)
	if err != nil {
		return nil, err
	}
	text, err := HubConfig(o, adminPub, leafPub)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{}
	if err := opts.ProcessConfigString(text); err != nil {
		return nil, fmt.Errorf("hub configuration: %w", err)
	}
	opts.NoSigs = true
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("configure the hub: %w", err)
	}
	lg := newNATSLogger(o.Logger)
	ns.SetLoggerV2(lg, lg.debugEnabled(), false, false)
	ns.Start()
	if !ns.ReadyForConnections(readyTimeout) {
		ns.Shutdown()
		if msg := lg.fatalMessage(); msg != "" {
			return nil, startError(msg, o.Listen)
		}
		return nil, fmt.Errorf("hub not ready after %s", readyTimeout)
	}
	scheme := "nats"
	if o.TLSCert != "" {
		scheme = "tls"
	}
	h := &Hub{ns: ns, web: o.WebSocket, AdminSeedFile: adminFile, LeafSeedFile: leafFile,
		ClientURL: scheme + "://" + ns.Addr().String()}
	h.LeafURL = scheme + "://" + o.LeafListen
	return h, nil
}

// freeIfZero gives an address with port 0 a port free just now.
func freeIfZero(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", addr, err)
	}
	if port != "0" {
		return addr, nil
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// WebSocketURL is the WebSocket listener's URL, or "" without one.
func (h *Hub) WebSocketURL() string {
	if h.web == "" {
		return ""
	}
	return h.ns.WebsocketURL()
}

// Leaves counts the leaf connections of the hosts joined.
func (h *Hub) Leaves() int { return h.ns.NumLeafNodes() }

// Shutdown stops the hub; the hosts keep serving and rejoin when it is back.
func (h *Hub) Shutdown() {
	h.ns.Shutdown()
	done := make(chan struct{})
	go func() { h.ns.WaitForShutdown(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
}

// LoadOrCreateSeed returns the public key of the nkey seed in path, made (mode 0600) when
// missing: a hub client's credential.
func LoadOrCreateSeed(path string) (string, error) { return loadOrCreateSeed(path) }
