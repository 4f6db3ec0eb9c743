package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/nats-io/nkeys"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
)

type credsCmd struct {
	Add credsAddCmd `cmd:"" help:"Make an identity: an nkey made here (its seed never leaves this machine), its public key given to the daemon."`
	Ls  credsLsCmd  `cmd:"" help:"List the identities."`
	Rm  credsRmCmd  `cmd:"" help:"Remove an identity: its connections are closed at once."`
}

type credsAddCmd struct {
	Name string `arg:"" help:"the identity's name (lower case, digits, - and _), as audit records and leases name it."`
	Role string `required:"" enum:"monitor,agent,admin" help:"monitor observes; agent also acts and leases; admin also manages identities and the event history."`
	Out  string `placeholder:"FILE" type:"path" help:"where to write the nkey seed, mode 0600 (default NAME.nk here)."`
	connFlags
}

// Run makes the key, registers its public half and writes the seed, refusing to overwrite one.
func (c *credsAddCmd) Run(e *env) error {
	out := c.Out
	if out == "" {
		out = c.Name + ".nk"
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return err
	}
	defer kp.Wipe()
	seed, _ := kp.Seed()
	pub, _ := kp.PublicKey()
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return observer.Errorf(observer.CodeBadRequest, "Choose another file with --out, or remove it first.", "cannot write the seed: %v", err)
	}
	_, werr := f.Write(append(seed, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(out)
		return werr
	}
	err = call(e, &c.connFlags, func(ctx context.Context, cl *bus.Client) (any, error) {
		r, err := cl.Creds(ctx, api.CredsRequest{Op: "add", Name: c.Name, Role: c.Role, Nkey: pub})
		if err != nil {
			return nil, err
		}
		return &credsAdded{r, c.Name, out, cl}, nil
	})
	if err != nil {
		_ = os.Remove(out) // the daemon refused it: a seed of no one
	}
	return err
}

// credsAdded is the reply of creds add: the identities, and how to use the new one.
type credsAdded struct {
	*api.CredsReply
	name, seed string
	client     *bus.Client
}

func (a *credsAdded) MarshalJSON() ([]byte, error) {
	abs, _ := filepath.Abs(a.seed)
	return jsonOf(map[string]any{"users": a.Users, "nkey_file": abs})
}

func (a *credsAdded) human(w io.Writer) error {
	abs, _ := filepath.Abs(a.seed)
	url := a.client.Conn().ConnectedUrlRedacted()
	fmt.Fprintf(w, "%s can connect with the nkey seed %s (mode 0600; keep it secret):\n", a.name, abs)
	fmt.Fprintf(w, "  axbus apps -s %s --nkey %s\n", url, abs)
	fmt.Fprintf(w, "  nats -s %s --nkey %s req %s '{}'\n", url, abs, a.client.Subjects().Endpoint("apps"))
	return nil
}

type credsLsCmd struct {
	connFlags
}

func (c *credsLsCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *bus.Client) (any, error) {
		return cl.Creds(ctx, api.CredsRequest{Op: "ls"})
	})
}

type credsRmCmd struct {
	Name string `arg:"" help:"the identity to remove."`
	connFlags
}

func (c *credsRmCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *bus.Client) (any, error) {
		return cl.Creds(ctx, api.CredsRequest{Op: "rm", Name: c.Name})
	})
}

func credsForm(w io.Writer, r *api.CredsReply) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tROLE\tNKEY")
	for _, u := range r.Users {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Name, u.Role, u.Nkey)
	}
	return tw.Flush()
}
