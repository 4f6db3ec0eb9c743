package main

import (
	"context"
	"flag"
	"time"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/nats-io/nats.go"
)

// clientFlags are the flags every client command shares: how to find the daemon.
type clientFlags struct {
	stateDir string
	server   string
	creds    string
	tlsCA    string
	host     string
	prefix   string
	timeout  time.Duration
}

func (f *clientFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.stateDir, "state-dir", "", "state dir of the local daemon (default: the user's state dir)")
	fs.StringVar(&f.server, "server", "", "NATS URL of another daemon or cluster (default: the local daemon)")
	fs.StringVar(&f.creds, "creds", "", "nkey seed file for --server")
	fs.StringVar(&f.tlsCA, "tls-ca", "", "PEM certificate to trust for a tls:// --server, such as that daemon's --tls-cert (default: the system's roots)")
	fs.StringVar(&f.host, "host", "", "host id of the daemon to talk to (default: discovered)")
	fs.StringVar(&f.prefix, "prefix", bus.DefaultPrefix, "subject prefix")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second,
		"wait and an action's expect: how long the condition may take (5s when not given); other commands: how long to wait for the reply")
}

// dial connects to the daemon: the local one found through its state dir (over TLS when it
// requires TLS: daemon.json names its certificate), or --server.
func (f *clientFlags) dial(ctx context.Context) (*bus.Client, func(), error) {
	var nc *nats.Conn
	var err error
	if f.server != "" {
		opts := []nats.Option{nats.Name("axbus"), nats.Timeout(2 * time.Second)}
		if f.creds != "" {
			nkey, kerr := nats.NkeyOptionFromSeed(f.creds)
			if kerr != nil {
				return nil, nil, kerr
			}
			opts = append(opts, nkey)
		}
		if f.tlsCA != "" {
			opts = append(opts, nats.RootCAs(f.tlsCA))
		}
		nc, err = nats.Connect(f.server, opts...)
	} else {
		nc, _, err = embedded.Connect(f.stateDir)
	}
	if err != nil {
		return nil, nil, err
	}
	opts := []bus.ClientOption{bus.WithPrefix(f.prefix), bus.WithTimeout(f.timeout)}
	if f.host != "" {
		opts = append(opts, bus.WithHost(f.host))
	}
	c, err := bus.NewClient(ctx, nc, opts...)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return c, nc.Close, nil
}

// conditionTimeout is --timeout when the command line gives it: for wait and an action's expect
// it is how long the condition may take (the reply's own deadline follows from it).
func (f *clientFlags) conditionTimeout(fs *flag.FlagSet) (time.Duration, bool) {
	given := false
	fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == "timeout" })
	return f.timeout, given
}
