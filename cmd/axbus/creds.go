package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nkeys"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
)

type credsCmd struct {
	Add credsAddCmd `cmd:"" help:"Make an identity: an nkey made here (its seed never leaves this machine), its public key given to the daemon."`
	Ls  credsLsCmd  `cmd:"" help:"List the identities."`
	Rm  credsRmCmd  `cmd:"" help:"Remove an identity: its connections are closed at once."`
}

type credsAddCmd struct {
	Name string `arg:"" help:"the identity's name (lower case, digits, - and _), as audit records and leases name it."`
	Role string `required:"" enum:"monitor,agent,admin" help:"monitor observes; agent also acts and leases; admin also manages identities and the event history."`
	Out  string `placeholder:"FILE" type:"path" help:"where to write the nkey seed, mode 0600 (default: creds/NAME.nk in the state dir)."`
	connFlags
}

// Run makes the key, registers its public half and writes the seed, refusing to overwrite one.
func (c *credsAddCmd) Run(e *env) error {
	if err := embedded.CheckUserName(c.Name); err != nil {
		return model.Errorf(model.CodeBadRequest, "Choose another name.", "%v", err)
	}
	out := c.Out
	if out == "" {
		dir, err := credsDir(c.StateDir)
		if err != nil {
			return err
		}
		out = filepath.Join(dir, c.Name+".nk")
	}
	target, err := c.resolve()
	if err != nil {
		return err
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
		return model.Errorf(model.CodeBadRequest, "Choose another file with --out, or remove it first (axbus creds rm removes the seed it wrote).",
			"cannot write the seed: %v", err)
	}
	_, werr := f.Write(append(seed, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(out)
		return werr
	}
	err = call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		r, err := cl.Creds(ctx, api.CredsRequest{Op: "add", Name: c.Name, Role: c.Role, Nkey: pub})
		if err != nil {
			return nil, err
		}
		return &credsAdded{r, c.Name, out, c.daemonFlags(target, cl), cl}, nil
	})
	if err != nil {
		_ = os.Remove(out) // the daemon refused it: a seed of no one
	}
	return err
}

// daemonFlags are the flags that name the daemon this command reached: -s URL for a server, the
// state dir when it is not the user's, none for the user's local daemon.
func (c *credsAddCmd) daemonFlags(target natsTarget, cl *client.Client) string {
	switch {
	case target.url != "":
		return "-s " + cl.Conn().ConnectedUrlRedacted() + " "
	case c.StateDir != "":
		abs, _ := filepath.Abs(c.StateDir)
		return "--state-dir " + abs + " "
	}
	return ""
}

// credsAdded is the reply of creds add: the identities, and how to use the new one.
type credsAdded struct {
	*api.CredsReply
	name, seed string
	daemon     string // the flags that name the daemon to another axbus command
	client     *client.Client
}

func (a *credsAdded) MarshalJSON() ([]byte, error) {
	abs, _ := filepath.Abs(a.seed)
	return jsonOf(map[string]any{"users": a.Users, "nkey_file": abs})
}

func (a *credsAdded) human(w io.Writer) error {
	abs, _ := filepath.Abs(a.seed)
	url := a.client.Conn().ConnectedUrlRedacted()
	fmt.Fprintf(w, "%s can connect with the nkey seed %s (mode 0600; keep it secret):\n", a.name, abs)
	fmt.Fprintf(w, "  axbus apps %s--nkey %s\n", a.daemon, abs)
	fmt.Fprintf(w, "  nats -s %s --nkey %s req %s '{}'\n", url, abs, a.client.Subjects().Endpoint("apps"))
	return nil
}

type credsLsCmd struct {
	connFlags
}

func (c *credsLsCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Creds(ctx, api.CredsRequest{Op: "ls"})
	})
}

type credsRmCmd struct {
	Name string `arg:"" help:"the identity to remove."`
	connFlags
}

// Run removes the identity, and the seed creds add kept for it in the state dir: of no use now,
// and in the way of a new identity of that name.
func (c *credsRmCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		before, err := cl.Creds(ctx, api.CredsRequest{Op: "ls"})
		if err != nil {
			return nil, err
		}
		r, err := cl.Creds(ctx, api.CredsRequest{Op: "rm", Name: c.Name})
		if err != nil {
			return nil, err
		}
		removed := &credsRemoved{CredsReply: r}
		for _, u := range before.Users {
			if u.Name == c.Name {
				removed.seed = removeKeptSeed(c.StateDir, u)
			}
		}
		return removed, nil
	})
}

// credsRemoved is the reply of creds rm: the identities left, and the seed file removed if any.
type credsRemoved struct {
	*api.CredsReply
	seed string
}

func (r *credsRemoved) MarshalJSON() ([]byte, error) {
	doc := map[string]any{"users": r.Users}
	if r.seed != "" {
		doc["nkey_file_removed"] = r.seed
	}
	return jsonOf(doc)
}

func (r *credsRemoved) human(w io.Writer) error {
	if err := credsForm(w, r.CredsReply); err != nil {
		return err
	}
	if r.seed != "" {
		_, err := fmt.Fprintf(w, "removed the seed %s\n", r.seed)
		return err
	}
	return nil
}

func credsForm(w io.Writer, r *api.CredsReply) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tROLE\tNKEY")
	for _, u := range r.Users {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Name, u.Role, u.Nkey)
	}
	return tw.Flush()
}

// credsDirName is the state dir's folder where creds add keeps the seeds it makes (the folder
// 0700, each seed 0600): out of the working directory, which may be a git checkout.
const credsDirName = "creds"

// credsDir is the creds folder of stateDir ("" for the user's state dir), made when missing.
func credsDir(stateDir string) (string, error) {
	dir, err := credsPath(stateDir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", model.Errorf(model.CodeBadRequest, "Write the seed elsewhere with --out FILE.", "cannot make %s: %v", dir, err)
	}
	// MkdirAll leaves a folder that was there as it was: the seeds are secrets.
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", err
	}
	return dir, nil
}

// credsPath is the absolute path of the creds folder of stateDir ("" for the user's state dir).
func credsPath(stateDir string) (string, error) {
	if stateDir == "" {
		d, err := embedded.DefaultStateDir()
		if err != nil {
			return "", err
		}
		stateDir = d
	}
	return filepath.Abs(filepath.Join(stateDir, credsDirName))
}

// removeKeptSeed removes the seed creds add kept for u in the creds folder, if it is u's (the
// same name on another daemon may be another key), and returns its path; "" when none was.
func removeKeptSeed(stateDir string, u api.User) string {
	dir, err := credsPath(stateDir)
	if err != nil {
		return ""
	}
	path := filepath.Join(dir, u.Name+".nk")
	seed, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	kp, err := nkeys.FromSeed(bytes.TrimSpace(seed))
	if err != nil {
		return ""
	}
	defer kp.Wipe()
	if pub, _ := kp.PublicKey(); pub != u.Nkey || os.Remove(path) != nil {
		return ""
	}
	return path
}
