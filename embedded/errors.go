package embedded

import (
	"fmt"
	"io/fs"
	"net"

	"github.com/axbus/axbus/model"
)

// The errors of this package are model.Coded: each knows its code (and so the CLI's exit
// status) and what the user can do about it.
var (
	_ model.Coded = (*AlreadyRunningError)(nil)
	_ model.Coded = (*PortBusyError)(nil)
	_ model.Coded = (*NotRunningError)(nil)
	_ model.Coded = (*InsecureCredsError)(nil)
	_ model.Coded = (*ExposedListenError)(nil)
	_ model.Coded = (*TLSFilesError)(nil)
)

// AlreadyRunningError is returned by Start when another daemon holds the
// state directory's lock. URL and PID come from its daemon.json and are empty
// when it has not written one yet.
type AlreadyRunningError struct {
	URL      string
	PID      int
	StateDir string
}

func (e *AlreadyRunningError) Error() string {
	if e.URL == "" {
		return fmt.Sprintf("already running: another axbus daemon holds the lock on state dir %s", e.StateDir)
	}
	return fmt.Sprintf("already running at %s (pid %d, state dir %s)", e.URL, e.PID, e.StateDir)
}

// Code implements model.Coded.
func (e *AlreadyRunningError) Code() model.Code { return model.CodeAlreadyRunning }

// Suggestion implements model.Coded.
func (e *AlreadyRunningError) Suggestion() string {
	if e.PID > 0 {
		return fmt.Sprintf("use the running daemon, or stop it first (kill %d), or use another state directory", e.PID)
	}
	return "use the running daemon, or stop it first, or use another state directory"
}

// PortBusyError is returned by Start when the listen address is taken.
type PortBusyError struct {
	Addr string
}

func (e *PortBusyError) Error() string {
	return fmt.Sprintf("port busy: %s is already in use by another process", e.Addr)
}

// Code implements model.Coded.
func (e *PortBusyError) Code() model.Code { return model.CodeAddressInUse }

// Suggestion implements model.Coded.
func (e *PortBusyError) Suggestion() string {
	port := e.Addr
	if _, p, err := net.SplitHostPort(e.Addr); err == nil {
		port = p
	}
	return fmt.Sprintf("find the process with `lsof -nP -iTCP:%s -sTCP:LISTEN`, stop it, or listen on another address", port)
}

// NotRunningError says that no daemon holds the state directory's lock.
// errors.Is(err, ErrNotRunning) matches every NotRunningError.
type NotRunningError struct {
	StateDir string
}

// ErrNotRunning is returned (as a *NotRunningError naming the state dir) when
// no daemon is running.
var ErrNotRunning error = &NotRunningError{}

func (e *NotRunningError) Error() string {
	if e.StateDir == "" {
		return "axbus daemon is not running; start one with `axbus serve` or `make run`"
	}
	return fmt.Sprintf("axbus daemon is not running (state dir %s); start one with `axbus serve` or `make run`", e.StateDir)
}

// Code implements model.Coded.
func (e *NotRunningError) Code() model.Code { return model.CodeUnavailable }

// Suggestion implements model.Coded.
func (e *NotRunningError) Suggestion() string {
	return "start one with `axbus serve` or `make run`"
}

// Is makes every *NotRunningError match ErrNotRunning.
func (e *NotRunningError) Is(target error) bool {
	return target == ErrNotRunning
}

// InsecureCredsError is returned by Start when the client seed file can be
// read or written by others than its owner.
type InsecureCredsError struct {
	Path string
	Mode fs.FileMode
}

func (e *InsecureCredsError) Error() string {
	return fmt.Sprintf("refusing to use %s: mode %04o is looser than 0600", e.Path, e.Mode.Perm())
}

// Code implements model.Coded.
func (e *InsecureCredsError) Code() model.Code { return model.CodePermissionDenied }

// Suggestion implements model.Coded.
func (e *InsecureCredsError) Suggestion() string {
	return fmt.Sprintf("chmod 600 %s (or remove it to get a new key; running clients then need to reconnect)", e.Path)
}

// ExposedListenError is returned by Start when the client listen address is
// not loopback (other machines could connect) and neither TLS nor
// WithInsecureRemote was asked for: the accessibility tree, typed text
// included, would cross the network in plaintext.
type ExposedListenError struct {
	Addr string
}

func (e *ExposedListenError) Error() string {
	return fmt.Sprintf("refusing to listen on %s without TLS: %s, so other machines could connect and read the traffic in plaintext",
		e.Addr, describeHost(e.Addr))
}

// Code implements model.Coded.
func (e *ExposedListenError) Code() model.Code { return model.CodeBadRequest }

// Suggestion implements model.Coded.
func (e *ExposedListenError) Suggestion() string {
	port := "4228"
	if _, p, err := net.SplitHostPort(e.Addr); err == nil && p != "0" {
		port = p
	}
	return fmt.Sprintf("listen on loopback with --listen 127.0.0.1:%s, require TLS with --tls-cert FILE --tls-key FILE, "+
		"or accept plaintext from the network with --insecure-remote", port)
}

// describeHost says which interfaces a listen address host:port means.
func describeHost(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "it is not a loopback address"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return "that is every interface"
	}
	return "it is not a loopback address"
}

// TLSFilesError is returned by Start when the TLS certificate or key cannot
// be used.
type TLSFilesError struct {
	CertFile, KeyFile string
	Err               error
}

func (e *TLSFilesError) Error() string {
	return fmt.Sprintf("TLS certificate %q and key %q: %v", e.CertFile, e.KeyFile, e.Err)
}

// Code implements model.Coded.
func (e *TLSFilesError) Code() model.Code { return model.CodeBadRequest }

func (e *TLSFilesError) Unwrap() error { return e.Err }

// Suggestion implements model.Coded.
func (e *TLSFilesError) Suggestion() string {
	return "give both --tls-cert and --tls-key: a PEM certificate (its chain may follow it) and the PEM private key that matches it"
}
