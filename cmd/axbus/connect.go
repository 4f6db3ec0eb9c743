package main

import (
	"context"
	"time"

	"github.com/axbus/axbus/client"
	"github.com/nats-io/nats.go"
)

// connFlags are the flags every client command shares: how to reach the daemon, as the nats CLI
// does it. Without a server (no --server, NATS_URL or context URL) the client finds the local
// daemon through its state dir, and connects as the identity given (--nkey) or as its owner.
type connFlags struct {
	Server   string        `short:"s" env:"NATS_URL" placeholder:"URL" help:"NATS URL of the daemon (or of a NATS system it joins); default: the local daemon." group:"Connection"`
	Nkey     string        `env:"NATS_NKEY" placeholder:"FILE" help:"nkey seed file to authenticate with (what axbus creds add wrote), with the local daemon too." group:"Connection"`
	Creds    string        `env:"NATS_CREDS" placeholder:"FILE" help:"NATS credentials file (JWT and seed) to authenticate with." group:"Connection"`
	Context  string        `env:"NATS_CONTEXT" placeholder:"NAME" help:"a context of the nats CLI (nats context ls) for the server and its credentials (default: the one nats context select chose, unless --state-dir is given)." group:"Connection"`
	TLSCA    string        `name:"tls-ca" env:"NATS_CA" placeholder:"FILE" help:"PEM certificate to trust for a tls:// server, such as that daemon's --tls-cert (default: the system's roots)." group:"Connection"`
	TLSCert  string        `name:"tls-cert" env:"NATS_CERT" placeholder:"FILE" help:"PEM client certificate for a server that asks for one (with --tls-key)." group:"Connection"`
	TLSKey   string        `name:"tls-key" env:"NATS_KEY" placeholder:"FILE" help:"the PEM private key of --tls-cert." group:"Connection"`
	Host     string        `placeholder:"ID" help:"host id of the daemon to talk to (default: discovered); apps and tail take '*' for every host a hub reaches." group:"Connection"`
	Prefix   string        `default:"ax" help:"subject prefix." group:"Connection"`
	StateDir string        `placeholder:"DIR" type:"path" help:"state dir of the local daemon (default: the user's state dir)." group:"Connection"`
	Timeout  time.Duration `help:"how long to wait for the outcome (default 5s): a wait's condition; an action's locator element becoming actionable, and its expect, each; a launched app registering (default 30s); a quit app ending. The reply may come 10s later. Other commands: how long to wait for the reply (default 30s)." group:"Connection"`
	JSON     bool          `help:"print JSON even on a terminal."`
}

// dial connects to the daemon: -s/--server (or NATS_URL, or the context's URL) with its
// credentials, or else the local one found through its state dir (over TLS when it requires
// TLS: daemon.json names its certificate), as the identity given or else as its owner. opts
// are added to the connection's.
func (f *connFlags) dial(ctx context.Context, opts ...nats.Option) (*client.Client, func(), error) {
	target, err := f.resolve()
	if err != nil {
		return nil, nil, err
	}
	var nc *nats.Conn
	if target.url == "" {
		nc, err = target.connectLocal(f.StateDir, opts...)
	} else {
		nc, err = target.connect(opts...)
	}
	if err != nil {
		return nil, nil, err
	}
	clientOpts := []client.Option{client.WithPrefix(f.Prefix)}
	if f.Timeout > 0 {
		clientOpts = append(clientOpts, client.WithTimeout(f.Timeout))
	}
	if f.Host != "" {
		clientOpts = append(clientOpts, client.WithHost(f.Host))
	}
	c, err := client.New(ctx, nc, clientOpts...)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return c, nc.Close, nil
}

// replyContext bounds a call by --timeout when it was given; the call's own deadline otherwise.
func (f *connFlags) replyContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if f.Timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, f.Timeout)
}
