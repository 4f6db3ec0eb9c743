package embedded

import (
	"context"
	"fmt"
	"net"
	"time"
)

// resolveTimeout bounds the lookup of a listen host name.
const resolveTimeout = 2 * time.Second

// checkExposure decides whether the client listener may listen on host: a
// loopback host always may; any other (another machine could connect) only
// with TLS or when the caller accepted plaintext (WithInsecureRemote). It
// reports whether host is loopback.
func (c *config) checkExposure(host string) (loopback bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), resolveTimeout)
	defer cancel()
	loopback, err = isLoopbackHost(ctx, host)
	if err != nil {
		return false, err
	}
	if !loopback && c.tlsCert == "" && !c.insecureRemote {
		return false, &ExposedListenError{Addr: c.listen}
	}
	return loopback, nil
}

// isLoopbackHost reports whether every address host stands for is a
// loopback one. An IP literal is taken as it is; a name is resolved, so
// "localhost" is loopback where it resolves to 127.0.0.1 or ::1 only. The
// empty host means every interface: not loopback.
func isLoopbackHost(ctx context.Context, host string) (bool, error) {
	if host == "" {
		return false, nil
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback(), nil
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return false, fmt.Errorf("listen host %q: %w", host, err)
	}
	for _, a := range addrs {
		if !a.IP.IsLoopback() {
			return false, nil
		}
	}
	return len(addrs) > 0, nil
}
