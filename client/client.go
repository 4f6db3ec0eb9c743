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

// Client is the Go API of axbus for agents and tools: typed calls to a host's endpoints and its
// event stream. The axbus CLI is built on it.
type Client struct {
	nc      *nats.Conn
	subj    api.Subjects
	timeout time.Duration
}

// Option configures a Client.
type Option func(*Client)

// WithHost talks to the daemon of host instead of discovering it.
func WithHost(host string) Option { return func(c *Client) { c.subj.Host = api.Token(host) } }

// WithPrefix sets the subject prefix (default "ax").
func WithPrefix(p string) Option { return func(c *Client) { c.subj.Prefix = p } }

// WithTimeout bounds calls that carry no deadline of their own (default api.ReplyTimeout).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// New returns a client on nc. Without WithHost it asks the micro service discovery which
// host answers, and uses the first.
func New(ctx context.Context, nc *nats.Conn, opts ...Option) (*Client, error) {
	c := &Client{nc: nc, subj: api.Subjects{Prefix: api.DefaultPrefix}, timeout: api.ReplyTimeout}
	for _, o := range opts {
		o(c)
	}
	if c.subj.Host == "" {
		host, err := discoverHost(ctx, nc)
		if err != nil {
			return nil, err
		}
		c.subj.Host = host
	}
	return c, nil
}

// Host is the host token the client talks to.
func (c *Client) Host() string { return c.subj.Host }

// Subjects are the subjects of the client's host.
func (c *Client) Subjects() api.Subjects { return c.subj }

// Conn is the client's NATS connection.
func (c *Client) Conn() *nats.Conn { return c.nc }

func discoverHost(ctx context.Context, nc *nats.Conn) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	msg, err := nc.RequestWithContext(ctx, "$SRV.INFO."+api.ServiceName, nil)
	if err != nil {
		return "", unavailable("$SRV.INFO."+api.ServiceName, err)
	}
	var info struct {
		Metadata map[string]string `json:"metadata"`
	}
	if err := json.Unmarshal(msg.Data, &info); err != nil || info.Metadata["host"] == "" {
		return "", model.Errorf(model.CodeUnavailable, "Name the host with --host.",
			"the axbus service did not say which host it serves")
	}
	return info.Metadata["host"], nil
}

func unavailable(subject string, err error) *model.Error {
	if errors.Is(err, nats.ErrNoResponders) {
		return model.Errorf(model.CodeUnavailable,
			"Start the daemon with `axbus serve` (or `make run`), or name another with --server/--host.",
			"no axbus daemon answers on %s", subject).Wrap(err)
	}
	if errors.Is(err, errLinkLost) {
		return model.Errorf(model.CodeUnavailable,
			"Check the app's state before you retry: the daemon may have done it before the connection went.",
			"%v (%s)", err, subject).Wrap(err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) {
		return model.Errorf(model.CodeTimeout, "The daemon may be busy or the request too big; retry, or raise the timeout.",
			"no reply on %s in time", subject).Wrap(err)
	}
	return model.Errorf(model.CodeUnavailable, "Check the connection to the NATS server.",
		"request on %s failed: %v", subject, err).Wrap(err)
}

// Call sends req (any JSON value; nil is {}) to an endpoint and decodes the reply into reply.
// An error reply comes back as an *model.Error with its code and suggestion.
func (c *Client) Call(ctx context.Context, endpoint string, req, reply any) error {
	data := []byte("{}")
	if req != nil {
		var err error
		if data, err = json.Marshal(req); err != nil {
			return unencodable(err)
		}
	}
	return c.CallRaw(ctx, endpoint, data, reply)
}

// CallRaw is Call with a request body that is already encoded.
func (c *Client) CallRaw(ctx context.Context, endpoint string, data []byte, reply any) error {
	ctx, cancel := noDeadline(ctx, c.timeout)
	defer cancel()
	linked, unlink := c.whileLinked(ctx)
	defer unlink()
	subject := c.subj.Endpoint(endpoint)
	send := func() (*nats.Msg, error) {
		return c.nc.RequestMsgWithContext(linked, &nats.Msg{Subject: subject, Data: data})
	}
	msg, err := send()
	if errors.Is(err, nats.ErrNoResponders) {
		msg, err = c.askAgain(linked, endpoint, send)
	}
	if errors.Is(err, errRoleRefused) {
		return roleRefused(endpoint)
	}
	if err != nil {
		return unavailable(subject, linkError(linked, err))
	}
	if e := decodeError(msg); e != nil {
		return e
	}
	if reply == nil {
		return nil
	}
	if raw, ok := reply.(*json.RawMessage); ok {
		*raw = append((*raw)[:0], msg.Data...)
		return nil
	}
	if err := json.Unmarshal(msg.Data, reply); err != nil {
		return notUnderstood("reply of "+endpoint, err)
	}
	return nil
}

// notUnderstood is a reply this client cannot decode: the daemon speaks another API.
func notUnderstood(what string, err error) *model.Error {
	return model.Errorf(model.CodeInternal, "The daemon and this client disagree on the API; use the same axbus version.",
		"%s not understood: %v", what, err)
}

// unencodable is a request encoding/json refused.
func unencodable(err error) *model.Error {
	return model.Errorf(model.CodeBadRequest, "Pass a JSON-encodable request.", "%v", err)
}

// natsTrouble is a NATS call that failed for another reason than a missing daemon.
func natsTrouble(what string, err error) *model.Error {
	return model.Errorf(model.CodeUnavailable, "Check the NATS connection.", "%s: %v", what, err).Wrap(err)
}

// noDeadline bounds ctx by d when it has no deadline of its own.
func noDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}
