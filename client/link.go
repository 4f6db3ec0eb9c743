package client

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go"
)

// errLinkLost is why a request ended as soon as its connection went: a request in flight when
// the connection to the daemon is lost gets no reply, ever; waiting out its deadline would only
// hide that.
var errLinkLost = errors.New("the connection to the daemon was lost while the request was under way")

// whileLinked is ctx, ended with errLinkLost as soon as the client's connection disconnects or
// closes. A request started while the connection reconnects is kept, as nats.go keeps it, for
// the connection that comes back. The caller calls done when the request is over.
func (c *Client) whileLinked(ctx context.Context) (linked context.Context, done func()) {
	linked, cancel := context.WithCancelCause(ctx)
	status := c.nc.StatusChanged(nats.DISCONNECTED, nats.RECONNECTING, nats.CLOSED)
	stop := make(chan struct{})
	go func() {
		select {
		case <-status:
			cancel(errLinkLost)
		case <-stop:
		case <-linked.Done():
		}
	}()
	return linked, func() {
		close(stop)
		c.nc.RemoveStatusListener(status)
		cancel(nil)
	}
}

// linkError is err, or errLinkLost when that is why ctx (a whileLinked one) ended.
func linkError(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), errLinkLost) {
		return errLinkLost
	}
	return err
}
