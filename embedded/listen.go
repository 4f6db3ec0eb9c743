package embedded

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"
)

// precheckPort lets tests reach the server's own busy-port path.
var precheckPort = true

// validate checks the options and returns the listen host and port.
func (c *config) validate() (host string, port int, err error) {
	host, p, err := net.SplitHostPort(c.listen)
	if err != nil {
		return "", 0, fmt.Errorf("listen address %q: %w", c.listen, err)
	}
	port, err = strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("listen address %q: bad port", c.listen)
	}
	if c.maxPayload <= 0 {
		return "", 0, fmt.Errorf("max payload %d: must be positive", c.maxPayload)
	}
	for _, st := range c.streams {
		if st.name == "" || len(st.subjects) == 0 {
			return "", 0, fmt.Errorf("event stream %q: needs a name and at least one subject", st.name)
		}
	}
	for _, b := range c.buckets {
		if b == "" {
			return "", 0, errors.New("kv bucket: empty name")
		}
	}
	return host, port, nil
}

// checkPortFree gives a clear error before the server is even built. The
// server's own listen error is still mapped (startError): the port can be
// taken in between.
func checkPortFree(addr string) error {
	l, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return &PortBusyError{Addr: addr}
	}
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return l.Close()
}

// startError turns nats-server's fatal start message into an error.
func startError(msg, addr string) error {
	if strings.HasPrefix(msg, "Error listening on port") {
		if strings.Contains(msg, syscall.EADDRINUSE.Error()) {
			return &PortBusyError{Addr: addr}
		}
		return fmt.Errorf("cannot listen on %s: %s", addr, msg)
	}
	return fmt.Errorf("nats server failed to start: %s", msg)
}
