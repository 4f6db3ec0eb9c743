package main

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/observer"
)

// connFlags are the flags every client command shares: how to reach the daemon, as the nats CLI
// does it. Without a server (no --server, NATS_URL or context) the client finds the local
// daemon through its state dir.
type connFlags struct {
	Server   string        `short:"s" env:"NATS_URL" placeholder:"URL" help:"NATS URL of the daemon (or of a NATS system it joins); default: the local daemon." group:"Connection"`
	Nkey     string        `placeholder:"FILE" type:"existingfile" help:"nkey seed file to authenticate with (a daemon's client credentials)." group:"Connection"`
	Creds    string        `placeholder:"FILE" type:"existingfile" help:"NATS credentials file (JWT and seed) to authenticate with." group:"Connection"`
	Context  string        `env:"NATS_CONTEXT" placeholder:"NAME" help:"a context of the nats CLI (nats context ls) for the server and its credentials." group:"Connection"`
	TLSCA    string        `name:"tls-ca" placeholder:"FILE" type:"existingfile" help:"PEM certificate to trust for a tls:// server, such as that daemon's --tls-cert (default: the system's roots)." group:"Connection"`
	Host     string        `placeholder:"ID" help:"host id of the daemon to talk to (default: discovered); apps and tail take '*' for every host a hub reaches." group:"Connection"`
	Prefix   string        `default:"ax" help:"subject prefix." group:"Connection"`
	StateDir string        `placeholder:"DIR" type:"path" help:"state dir of the local daemon (default: the user's state dir)." group:"Connection"`
	Timeout  time.Duration `help:"how long to wait for the outcome (default 5s): a wait's condition; an action's locator element becoming actionable, and its expect, each; a launched app registering (default 30s); a quit app ending. The reply may come 10s later. Other commands: how long to wait for the reply (default 30s)." group:"Connection"`
	JSON     bool          `help:"print JSON even on a terminal."`
}

// dial connects to the daemon: -s/--server (or NATS_URL, or the context's URL) with its
// credentials, or else the local one found through its state dir (over TLS when it requires
// TLS: daemon.json names its certificate). opts are added to the connection's.
func (f *connFlags) dial(ctx context.Context, opts ...nats.Option) (*bus.Client, func(), error) {
	target, err := f.resolve()
	if err != nil {
		return nil, nil, err
	}
	var nc *nats.Conn
	if target.url == "" {
		nc, _, err = embedded.Connect(f.StateDir, opts...)
	} else {
		nc, err = target.connect(opts...)
	}
	if err != nil {
		return nil, nil, err
	}
	clientOpts := []bus.ClientOption{bus.WithPrefix(f.Prefix)}
	if f.Timeout > 0 {
		clientOpts = append(clientOpts, bus.WithTimeout(f.Timeout))
	}
	if f.Host != "" {
		clientOpts = append(clientOpts, bus.WithHost(f.Host))
	}
	c, err := bus.NewClient(ctx, nc, clientOpts...)
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

// natsTarget is a server to connect to and how to authenticate.
type natsTarget struct {
	url, nkey, creds, ca string
	user, password       string
	token                string
}

// resolve merges the flags over the context: a flag given wins over the context's field.
func (f *connFlags) resolve() (natsTarget, error) {
	var t natsTarget
	if f.Context != "" {
		c, err := loadNatsContext(f.Context)
		if err != nil {
			return t, err
		}
		t = natsTarget{url: c.URL, nkey: c.Nkey, creds: c.Creds, ca: c.CA, user: c.User, password: c.Password, token: c.Token}
	}
	for _, o := range []struct {
		dst *string
		v   string
	}{{&t.url, f.Server}, {&t.nkey, f.Nkey}, {&t.creds, f.Creds}, {&t.ca, f.TLSCA}} {
		if o.v != "" {
			*o.dst = o.v
		}
	}
	if t.url == "" && (t.nkey != "" || t.creds != "") {
		return t, observer.Errorf(observer.CodeBadRequest, "Name the server with -s/--server (or NATS_URL); the local daemon needs no credentials.",
			"credentials given without a server")
	}
	return t, nil
}

func (t natsTarget) connect(extra ...nats.Option) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("axbus"), nats.Timeout(2 * time.Second)}
	switch {
	case t.creds != "":
		opts = append(opts, nats.UserCredentials(t.creds))
	case t.nkey != "":
		nkey, err := nats.NkeyOptionFromSeed(t.nkey)
		if err != nil {
			return nil, observer.Errorf(observer.CodeBadRequest, "Pass the nkey seed file of the daemon's client credentials (--nkey FILE).",
				"nkey %s: %v", t.nkey, err)
		}
		opts = append(opts, nkey)
	case t.user != "":
		opts = append(opts, nats.UserInfo(t.user, t.password))
	case t.token != "":
		opts = append(opts, nats.Token(t.token))
	}
	if t.ca != "" {
		opts = append(opts, nats.RootCAs(t.ca))
	}
	nc, err := nats.Connect(t.url, append(opts, extra...)...)
	if errors.Is(err, nats.ErrAuthorization) {
		return nil, observer.Errorf(observer.CodePermissionDenied, "Check the credentials (--nkey, --creds, --context): an admin lists them with axbus creds ls.",
			"%s does not know these credentials (never added, or removed)", t.url).Wrap(err)
	}
	if err != nil {
		return nil, observer.Errorf(observer.CodeUnavailable, "Check the server's URL and credentials (-s, --nkey, --creds, --context).",
			"cannot connect to %s: %v", t.url, err).Wrap(err)
	}
	return nc, nil
}
