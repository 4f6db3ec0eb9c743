package embedded

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/nats-io/nats-server/v2/server"
)

// serverTLS is the TLS the client listener requires: the server's
// configuration, and what daemon.json tells clients about the certificate.
type serverTLS struct {
	config *tls.Config
	// certFile is the certificate's absolute path: clients run elsewhere.
	certFile string
	// pin is the hex SHA-256 of the leaf certificate's DER.
	pin string
}

// loadServerTLS loads the PEM certificate and key the way nats-server's
// own configuration does (TLS 1.2 at least, its cipher preferences). A
// client certificate is not asked for: clients authenticate with the nkey.
func loadServerTLS(certFile, keyFile string) (*serverTLS, error) {
	if certFile == "" || keyFile == "" {
		return nil, &TLSFilesError{CertFile: certFile, KeyFile: keyFile, Err: errors.New("both are needed")}
	}
	cfg, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: certFile, KeyFile: keyFile})
	if err != nil {
		return nil, &TLSFilesError{CertFile: certFile, KeyFile: keyFile, Err: err}
	}
	if len(cfg.Certificates) == 0 || len(cfg.Certificates[0].Certificate) == 0 {
		return nil, &TLSFilesError{CertFile: certFile, KeyFile: keyFile, Err: errors.New("no certificate")}
	}
	abs, err := filepath.Abs(certFile)
	if err != nil {
		return nil, &TLSFilesError{CertFile: certFile, KeyFile: keyFile, Err: err}
	}
	return &serverTLS{config: cfg, certFile: abs, pin: certPin(cfg.Certificates[0].Certificate[0])}, nil
}

// certPin is the hex SHA-256 of a certificate's DER.
func certPin(der []byte) string {
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}

// pinnedTLS is the client side for a local daemon: it accepts exactly the
// certificate whose pin daemon.json records, whatever names it carries. A
// client on the daemon's machine dials 127.0.0.1 while the certificate
// names the machine as the network knows it, so a name check would fail;
// the pin is a stricter check than a chain to a root, which Go's own
// verification would give (hence InsecureSkipVerify: VerifyConnection
// does the verifying).
func pinnedTLS(pin string) *tls.Config {
	return &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("the server sent no certificate")
			}
			if got := certPin(cs.PeerCertificates[0].Raw); got != pin {
				return fmt.Errorf("the server's certificate (sha256 %s) is not the one daemon.json names (sha256 %s)", got, pin)
			}
			return nil
		},
	}
}
