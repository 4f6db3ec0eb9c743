package embedded

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Info is the content of daemon.json: how clients reach a running daemon.
type Info struct {
	// URL is what a client on the daemon's machine connects to: tls:// when
	// the listener requires TLS, nats:// otherwise; a loopback address when
	// the daemon listens on every interface.
	URL       string    `json:"url"`
	PID       int       `json:"pid"`
	CredsFile string    `json:"creds_file"`
	Started   time.Time `json:"started"`
	StateDir  string    `json:"state_dir"`

	// Listen is the address the client listener is bound to, as the
	// server reports it: "[::]:4228" for every interface (Go listens on
	// both IPv4 and IPv6 there, even when asked for 0.0.0.0).
	Listen string `json:"listen"`
	// Loopback says that only this machine can connect.
	Loopback bool `json:"loopback"`
	// TLSCertFile is the certificate (PEM) the listener presents when it
	// requires TLS; other tools can trust it as their root CA
	// (nats --tlsca), which checks its names too.
	TLSCertFile string `json:"tls_cert_file,omitempty"`
	// TLSCertSHA256 is the hex SHA-256 of that certificate's DER: Connect
	// accepts exactly this certificate.
	TLSCertSHA256 string `json:"tls_cert_sha256,omitempty"`
	// InsecureRemote says that other machines can connect and the
	// listener does not require TLS (WithInsecureRemote).
	InsecureRemote bool `json:"insecure_remote,omitempty"`
}

// TLS reports whether the client listener requires TLS.
func (i Info) TLS() bool { return i.TLSCertSHA256 != "" }

// AllInterfaces reports whether the client listener is bound to every
// interface (0.0.0.0, :: or an empty host).
func (i Info) AllInterfaces() bool {
	host, _, err := net.SplitHostPort(i.Listen)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "" || (ip != nil && ip.IsUnspecified())
}

func infoPath(dir string) string { return filepath.Join(dir, infoFileName) }

func writeInfo(dir string, info Info) error {
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(infoPath(dir), append(data, '\n'), privateFileMod)
}

func readInfo(dir string) (Info, error) {
	var info Info
	data, err := os.ReadFile(infoPath(dir))
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("parse %s: %w", infoPath(dir), err)
	}
	return info, nil
}
