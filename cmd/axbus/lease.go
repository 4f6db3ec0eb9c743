package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/textform"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
)

type leaseCmd struct {
	Acquire leaseAcquireCmd `cmd:"" help:"Take a lease and hold it while this command runs, renewing it; stopping the command (Ctrl-C, SIGTERM) releases it."`
	Renew   leaseRenewCmd   `cmd:"" help:"Give a lease this identity holds another TTL from now."`
	Release leaseReleaseCmd `cmd:"" help:"Release a lease this identity holds."`
	Ls      leaseLsCmd      `cmd:"" help:"List the leases in force (all, or those of an app, a window or input)."`
}

// leaseTarget names what a lease covers.
type leaseTarget struct {
	appFlags
	Window string `placeholder:"WINDOW" help:"one window of the app (id or title), leased alone." group:"Target"`
	Input  bool   `help:"the host's physical input (pointer and keys): one per desktop." group:"Target"`
}

func (t leaseTarget) request(op string) api.LeaseRequest {
	return api.LeaseRequest{Op: op, AppTarget: t.target(), Window: t.Window, Input: t.Input}
}

type leaseAcquireCmd struct {
	leaseTarget
	TTL  time.Duration `default:"30s" help:"the lease's life; it is renewed at a third of it while the command runs (1s to 10m)."`
	Wait time.Duration `help:"wait this long for a lease another identity holds to be free (told by its change events, not polled; at most 5m)."`
	connFlags
}

// Run acquires the lease and holds it: a lease ends with the connection it was acquired on,
// so it lives as long as this command.
func (c *leaseAcquireCmd) Run(e *env) error {
	cl, closeConn, err := c.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	req := c.request(api.LeaseAcquire)
	req.TTLMS, req.WaitMS = int(c.TTL.Milliseconds()), int(c.Wait.Milliseconds())
	ctx, cancel := c.replyContext(e.ctx)
	r, err := cl.Lease(ctx, req)
	cancel()
	if err != nil {
		return err
	}
	p := e.printer(c.JSON)
	if err := p.reply((*leaseReply)(r)); err != nil {
		return err
	}
	if p.human {
		fmt.Fprintf(e.stdout, "holding it, renewed every %v; Ctrl-C releases it\n", renewEvery(c.TTL))
	}
	return holdLease(e.ctx, cl, *r.Lease, c.TTL)
}

// renewEvery is how often a held lease of ttl is renewed: well before it runs out.
func renewEvery(ttl time.Duration) time.Duration { return max(ttl/3, 300*time.Millisecond) }

// holdLease renews lease until ctx ends, then releases it. It ends early, without error, when
// another command of the same identity releases it; with one when the lease was lost.
func holdLease(ctx context.Context, cl *client.Client, lease api.Lease, ttl time.Duration) error {
	ended := make(chan api.LeaseEvent, 1)
	subj := cl.Subjects()
	sub, err := cl.Conn().Subscribe(subj.Lease(lease.Key), func(m *nats.Msg) {
		var ev api.LeaseEvent
		if json.Unmarshal(m.Data, &ev) == nil && ev.Event != api.LeaseAcquired && ev.Event != api.LeaseRenewed &&
			ev.Lease.Holder == lease.Holder && ev.Lease.Acquired.Equal(lease.Acquired) {
			select {
			case ended <- ev:
			default:
			}
		}
	})
	if err != nil {
		return model.Errorf(model.CodeUnavailable, "Check the NATS connection.", "cannot follow the lease: %v", err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	renew := api.LeaseRequest{Op: api.LeaseRenew, Key: lease.Key, TTLMS: int(ttl.Milliseconds())}
	// The subscription came after the acquire: a renewal now also says it is still held.
	if _, err := cl.Lease(ctx, renew); err != nil && ctx.Err() == nil {
		return err
	}
	t := time.NewTicker(renewEvery(ttl))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := cl.Lease(rctx, api.LeaseRequest{Op: api.LeaseRelease, Key: lease.Key})
			if model.CodeOf(err) == model.CodeBadRequest {
				return nil // it ended meanwhile
			}
			return err
		case <-t.C:
			if _, err := cl.Lease(ctx, renew); err != nil && ctx.Err() == nil {
				return err
			}
		case ev := <-ended:
			switch ev.Event {
			case api.LeaseReleased:
				return nil
			case api.LeaseExpired:
				return model.Errorf(model.CodeTimeout, "Acquire it again, with a longer --ttl.", "the lease on %s expired before it was renewed", lease.Key)
			}
			return model.Errorf(model.CodeUnavailable, "Acquire it again.", "the lease on %s ended: the server lost this command's connection", lease.Key)
		}
	}
}

type leaseRenewCmd struct {
	leaseTarget
	Key string        `placeholder:"KEY" help:"the lease's key (as acquire printed it), instead of its target."`
	TTL time.Duration `default:"30s" help:"the lease's life from now (1s to 10m)."`
	connFlags
}

func (c *leaseRenewCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		req := c.request(api.LeaseRenew)
		req.Key, req.TTLMS = c.Key, int(c.TTL.Milliseconds())
		r, err := cl.Lease(ctx, req)
		return (*leaseReply)(r), err
	})
}

type leaseReleaseCmd struct {
	leaseTarget
	Key string `placeholder:"KEY" help:"the lease's key (as acquire printed it), instead of its target."`
	connFlags
}

func (c *leaseReleaseCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		req := c.request(api.LeaseRelease)
		req.Key = c.Key
		r, err := cl.Lease(ctx, req)
		return (*leaseReply)(r), err
	})
}

type leaseLsCmd struct {
	leaseTarget
	Key string `placeholder:"KEY" help:"only the lease of this key (and its windows', for an app)."`
	connFlags
}

func (c *leaseLsCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		req := c.request(api.LeaseList)
		req.Key = c.Key
		r, err := cl.Lease(ctx, req)
		return (*leaseReply)(r), err
	})
}

// leaseReply is a lease reply with its human form; its JSON is the reply's.
type leaseReply api.LeaseReply

func (r *leaseReply) human(w io.Writer) error {
	if r.Lease != nil {
		line := leaseLine(*r.Lease)
		if r.WaitedMS > 0 {
			line += ", after waiting " + textform.MS(r.WaitedMS)
		}
		_, err := fmt.Fprintln(w, line)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tHOLDER\tEXPIRES\tCOVERS")
	for _, l := range r.Leases {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", l.Key, l.Holder, l.Expires.Local().Format("15:04:05.000"), leaseCovers(l))
	}
	return tw.Flush()
}

// leaseLine is one lease: key, what it covers, holder, expiry.
func leaseLine(l api.Lease) string {
	return fmt.Sprintf("%s: %s, held by %s until %s (ttl %v)", l.Key, leaseCovers(l), l.Holder,
		l.Expires.Local().Format("15:04:05.000"), time.Duration(l.TTLMS)*time.Millisecond)
}

func leaseCovers(l api.Lease) string {
	switch {
	case l.What == api.LeaseInput && l.Action != "" && l.App != nil:
		return "physical input, for a " + l.Action + " on " + l.App.Name
	case l.What == api.LeaseInput:
		return "physical input"
	case l.App == nil:
		return l.What
	}
	s := l.App.Name + " (pid " + strconv.Itoa(l.App.PID) + ")"
	if l.Window != nil {
		s = "window " + strconv.Quote(l.Window.Title) + " of " + s
	}
	return s
}
