package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
)

// Discover returns how to reach the daemon of stateDir ("" means
// DefaultStateDir()). When no daemon holds the state dir's lock it returns
// an error matching ErrNotRunning, whatever daemon.json says: a daemon that
// died leaves a stale file behind.
func Discover(stateDir string) (Info, error) {
	dir, err := resolveStateDir(stateDir)
	if err != nil {
		return Info{}, err
	}
	held, err := lockHeld(dir)
	if err != nil {
		return Info{}, err
	}
	if !held {
		return Info{}, &NotRunningError{StateDir: dir}
	}
	info, err := readInfo(dir)
	if errors.Is(err, os.ErrNotExist) {
		return Info{}, fmt.Errorf("axbus daemon for state dir %s is starting (lock held, no %s yet); try again", dir, infoFileName)
	}
	if err != nil {
		return Info{}, err
	}
	return info, nil
}

// Client connection defaults: the daemon is local, so failing fast is more
// useful than waiting.
const (
	clientConnectTimeout = 2 * time.Second
	clientReconnectWait  = 250 * time.Millisecond
)

// Connect discovers the daemon of stateDir ("" means DefaultStateDir()) and
// connects to it over TCP, authenticating with its client nkey seed file.
// When the daemon requires TLS, Connect speaks TLS and accepts only the
// certificate daemon.json pins. opts are applied after the defaults and can
// override them.
func Connect(stateDir string, opts ...nats.Option) (*nats.Conn, Info, error) {
	info, err := Discover(stateDir)
	if err != nil {
		return nil, Info{}, err
	}
	nkey, err := nats.NkeyOptionFromSeed(info.CredsFile)
	if err != nil {
		return nil, info, fmt.Errorf("client creds %s: %w", info.CredsFile, err)
	}
	all := []nats.Option{
		nkey,
		nats.Name(clientName()),
		nats.Timeout(clientConnectTimeout),
		nats.ReconnectWait(clientReconnectWait),
	}
	if info.TLS() {
		all = append(all, nats.Secure(pinnedTLS(info.TLSCertSHA256)))
	}
	all = append(all, opts...)
	nc, err := nats.Connect(info.URL, all...)
	if err != nil {
		return nil, info, fmt.Errorf("connect to axbus daemon at %s: %w", info.URL, err)
	}
	return nc, info, nil
}

// clientName names the connection after the program, for `nats server
// report connections` and the server's logs.
func clientName() string {
	if len(os.Args) > 0 && os.Args[0] != "" {
		return filepath.Base(os.Args[0])
	}
	return "axbus-client"
}
