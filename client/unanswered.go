package client

import (
	"context"
	"errors"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/cenkalti/backoff/v4"
	"github.com/nats-io/nats.go"
)

// unansweredGrace is how long a request nobody answered is asked again: the daemon's own
// connection to its server, which carries every endpoint, comes back in milliseconds when the
// server cut it; a daemon that is away longer is UNAVAILABLE.
const unansweredGrace = time.Second

// errRoleRefused is a request nobody answered although the daemon does: one its identity's
// role does not reach (the server routes only what a role imports).
var errRoleRefused = errors.New("no endpoint for this role")

// roleRefusedAfter is how long an endpoint must go unanswered while status answers before it
// is taken as one the identity's role does not reach: a reconnected connection re-subscribes
// everything in one go, but in no set order, so status may answer a moment before the
// endpoint is back.
const roleRefusedAfter = 200 * time.Millisecond

// askAgain sends a request nobody answered (so nobody has it, and repeating it is safe) with
// send until someone does, for unansweredGrace at most. Between tries it asks status: an
// endpoint nobody answers for roleRefusedAfter while status does is one this identity's role
// does not reach.
func (c *Client) askAgain(ctx context.Context, endpoint string, send func() (*nats.Msg, error)) (*nats.Msg, error) {
	var msg *nats.Msg
	var refusedSince time.Time // status answered and the endpoint did not, since
	err := backoff.Retry(func() error {
		statusUp := endpoint != "status" && c.answers(ctx, "status")
		var err error
		if msg, err = send(); !errors.Is(err, nats.ErrNoResponders) {
			return backoff.Permanent(err)
		}
		switch {
		case !statusUp:
			refusedSince = time.Time{}
		case refusedSince.IsZero():
			refusedSince = time.Now()
		case time.Since(refusedSince) >= roleRefusedAfter:
			return backoff.Permanent(errRoleRefused)
		}
		return err
	}, backoff.WithContext(backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(10*time.Millisecond), backoff.WithMaxInterval(200*time.Millisecond),
		backoff.WithMaxElapsedTime(unansweredGrace)), ctx))
	return msg, err
}

// answers says whether endpoint answers an empty request without an error.
func (c *Client) answers(ctx context.Context, endpoint string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	msg, err := c.nc.RequestWithContext(ctx, c.subj.Endpoint(endpoint), []byte("{}"))
	return err == nil && decodeError(msg) == nil
}

// roleRefused is the error of a call its identity's role may not make.
func roleRefused(endpoint string) *model.Error {
	return model.Errorf(model.CodePermissionDenied, "Ask an admin for credentials of a role that may (axbus creds add NAME --role agent).",
		"this identity's role may not call %s", endpoint)
}
