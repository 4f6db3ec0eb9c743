package client

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go"
)

// The typed calls of Client, one per endpoint of api.Endpoints.

// Apps lists the running apps.
func (c *Client) Apps(ctx context.Context) ([]model.App, error) {
	var r api.AppsReply
	err := c.Call(ctx, "apps", api.AppsRequest{}, &r)
	return r.Apps, err
}

// Windows lists an app's windows.
func (c *Client) Windows(ctx context.Context, app api.AppTarget) (*api.WindowsReply, error) {
	var r api.WindowsReply
	if err := c.Call(ctx, "windows", api.WindowsRequest{AppTarget: app}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Inspect inspects a window.
func (c *Client) Inspect(ctx context.Context, req api.InspectRequest) (*model.Inspection, error) {
	var r model.Inspection
	if err := c.Call(ctx, "inspect", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Status returns the daemon's health.
func (c *Client) Status(ctx context.Context) (*api.StatusReply, error) {
	var r api.StatusReply
	if err := c.Call(ctx, "status", api.StatusRequest{}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Snapshot lists a stored snapshot again, whole or from one element.
func (c *Client) Snapshot(ctx context.Context, req api.SnapshotRequest) (*model.Inspection, error) {
	var r model.Inspection
	if err := c.Call(ctx, "snapshot", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Read returns the text of a window or scope. Without a deadline of ctx it waits as long as a
// read may take (the whole budget's deadline), and a little more for the reply to come.
func (c *Client) Read(ctx context.Context, req api.ReadRequest) (*model.ReadResult, error) {
	ctx, cancel := noDeadline(ctx, max(c.timeout, model.WholeBudget().Deadline+5*time.Second))
	defer cancel()
	var r model.ReadResult
	if err := c.Call(ctx, "read", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Act sends an action to its endpoint.
func (c *Client) Act(ctx context.Context, action string, req api.ActionRequest) (*api.ActionReply, error) {
	if _, ok := ctx.Deadline(); !ok { // the chain's deadline, then the expect its own time
		wait := api.DefaultWaitTimeout
		if req.Expect != nil && req.Expect.TimeoutMS > 0 {
			wait = time.Duration(req.Expect.TimeoutMS) * time.Millisecond
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, api.ChainDeadline+5*time.Second+wait)
		defer cancel()
	}
	var r api.ActionReply
	if err := c.Call(ctx, action, req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Console is a one-time URL of the daemon's web console (admins only).
func (c *Client) Console(ctx context.Context, req api.ConsoleRequest) (*api.ConsoleReply, error) {
	var r api.ConsoleReply
	if err := c.Call(ctx, "console", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Creds adds, lists or removes a client identity (admins only).
func (c *Client) Creds(ctx context.Context, req api.CredsRequest) (*api.CredsReply, error) {
	var r api.CredsReply
	if err := c.Call(ctx, "creds", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Agents lists who is connected: identities, roles, connections, last actions, leases.
func (c *Client) Agents(ctx context.Context) (*api.AgentsReply, error) {
	var r api.AgentsReply
	if err := c.Call(ctx, "agents", api.AgentsRequest{}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Lease acquires, renews, releases or lists leases. Without a deadline of ctx an acquire that
// waits is given its wait and a little more.
func (c *Client) Lease(ctx context.Context, req api.LeaseRequest) (*api.LeaseReply, error) {
	ctx, cancel := noDeadline(ctx, max(c.timeout, time.Duration(req.WaitMS)*time.Millisecond+10*time.Second))
	defer cancel()
	var r api.LeaseReply
	if err := c.Call(ctx, "lease", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// WebAccessibility claims (On) or releases an app's web accessibility for an agent.
func (c *Client) WebAccessibility(ctx context.Context, req api.WebAccessibilityRequest) (*api.WebAccessibilityReply, error) {
	var r api.WebAccessibilityReply
	if err := c.Call(ctx, "web_accessibility", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Wait waits for a condition and returns how the wait ended. A wait that did not meet its
// condition is not an error: Outcome says so.
func (c *Client) Wait(ctx context.Context, req api.WaitRequest) (*api.WaitResult, error) {
	return c.WaitAfter(ctx, req, nil)
}

// WaitAfter arms a wait, runs act once the daemon says the wait listens (so nothing act causes
// is missed), then waits for the outcome: subscribe, act, wait.
func (c *Client) WaitAfter(ctx context.Context, req api.WaitRequest, act func(context.Context) error) (*api.WaitResult, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return nil, unencodable(err)
	}
	timeout := time.Duration(req.TimeoutMS) * time.Millisecond
	if timeout <= 0 {
		timeout = api.DefaultWaitTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second) // the daemon answers at the deadline
	defer cancel()
	ctx, unlink := c.whileLinked(ctx)
	defer unlink()
	inbox := c.nc.NewRespInbox()
	replies := make(chan *nats.Msg, 4) // an armed note and the outcome: a small channel, not SubscribeSync's 64k
	sub, err := c.nc.ChanSubscribe(inbox, replies)
	if err != nil {
		return nil, unavailable(inbox, err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	subject := c.subj.Endpoint("wait")
	msg := &nats.Msg{Subject: subject, Reply: inbox, Data: data, Header: nats.Header{}}
	if act != nil {
		msg.Header.Set(api.HeaderInterim, "armed")
	}
	next := func() (*nats.Msg, error) {
		select {
		case reply := <-replies:
			if len(reply.Data) == 0 && reply.Header.Get("Status") == "503" {
				return nil, nats.ErrNoResponders
			}
			return reply, nil
		case <-ctx.Done():
			return nil, linkError(ctx, ctx.Err())
		}
	}
	send := func() (*nats.Msg, error) {
		if err := c.nc.PublishMsg(msg); err != nil {
			return nil, err
		}
		return next()
	}
	reply, err := send()
	if errors.Is(err, nats.ErrNoResponders) {
		reply, err = c.askAgain(ctx, "wait", send)
	}
	for ; ; reply, err = next() {
		if errors.Is(err, errRoleRefused) {
			return nil, roleRefused("wait")
		}
		if err != nil {
			return nil, unavailable(subject, err)
		}
		if e := decodeError(reply); e != nil {
			return nil, e
		}
		if reply.Header.Get(api.HeaderInterim) == "armed" {
			if act != nil {
				if err := act(ctx); err != nil {
					return nil, err
				}
				act = nil
			}
			continue
		}
		var r api.WaitResult
		if err := api.DecodeWaitResult(reply.Data, reply.Header.Get(api.HeaderListing), &r); err != nil {
			return nil, notUnderstood("wait reply", err)
		}
		return &r, nil
	}
}

// Window moves, resizes or closes an app's window, proven by the daemon's reading it again.
func (c *Client) Window(ctx context.Context, req api.WindowRequest) (*api.WindowReply, error) {
	var r api.WindowReply
	if err := c.Call(ctx, "window", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Launch starts an app and returns it once it is in the accessibility tree.
func (c *Client) Launch(ctx context.Context, req api.LaunchRequest) (*api.LaunchReply, error) {
	ctx, cancel := waitingFor(ctx, req.TimeoutMS, model.DefaultLaunchWait)
	defer cancel()
	var r api.LaunchReply
	if err := c.Call(ctx, "launch", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Quit ends an app and returns once it has.
func (c *Client) Quit(ctx context.Context, req api.QuitRequest) (*api.QuitReply, error) {
	ctx, cancel := waitingFor(ctx, req.TimeoutMS, model.QuitWait)
	defer cancel()
	var r api.QuitReply
	if err := c.Call(ctx, "quit", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Clipboard reads or writes the clipboard's text.
func (c *Client) Clipboard(ctx context.Context, req api.ClipboardRequest) (*api.ClipboardReply, error) {
	var r api.ClipboardReply
	if err := c.Call(ctx, "clipboard", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// waitingFor bounds a call that waits on the daemon (timeoutMS, else def) by that wait and a
// margin, unless ctx has a deadline of its own: the daemon's answer, TIMEOUT included, arrives.
func waitingFor(ctx context.Context, timeoutMS int, def time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	wait := def
	if timeoutMS > 0 {
		wait = time.Duration(timeoutMS) * time.Millisecond
	}
	return context.WithTimeout(ctx, wait+5*time.Second)
}

// Record starts a recording (op start) or stops one (op stop), which answers its flow.
func (c *Client) Record(ctx context.Context, req api.RecordRequest) (*api.RecordReply, error) {
	var r api.RecordReply
	if err := c.Call(ctx, "record", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Replay runs a flow on the host. A run that failed is a reply (Outcome failed, Failure says
// where and why), not an error. Without a deadline of ctx the call may take api.MaxReplay.
func (c *Client) Replay(ctx context.Context, req api.ReplayRequest) (*api.ReplayReply, error) {
	ctx, cancel := noDeadline(ctx, api.MaxReplay+10*time.Second)
	defer cancel()
	var r api.ReplayReply
	if err := c.Call(ctx, "replay", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
