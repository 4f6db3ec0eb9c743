package embedded

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// The files of InitHubTLS, in the hub's state dir.
const (
	HubCAFile   = "hub-ca.pem"
	HubCertFile = "hub-cert.pem"
	HubKeyFile  = "hub-key.pem"
)

// InitHubTLS makes, for a user who has none, a CA and a certificate for the hub signed by it,
// for names (host names or IP addresses: how the desktops and clients reach the hub) and this
// machine's loopback: the hub serves the certificate, desktops (--hub-ca) and clients
// (--tls-ca) trust the CA. Files that exist are never overwritten.
func InitHubTLS(dir string, names []string) (caFile, certFile, keyFile string, err error) {
	caFile, certFile, keyFile = filepath.Join(dir, HubCAFile), filepath.Join(dir, HubCertFile), filepath.Join(dir, HubKeyFile)
	for _, f := range []string{caFile, certFile, keyFile} {
		if _, err := os.Stat(f); err == nil {
			return "", "", "", fmt.Errorf("%s exists: the hub has its certificates (remove them to make new ones)", f)
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", "", "", err
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", "", err
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", "", err
	}
	now := time.Now()
	ca := &x509.Certificate{SerialNumber: serial(), Subject: pkix.Name{CommonName: "axbus hub CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return "", "", "", err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", "", err
	}
	leaf := &x509.Certificate{SerialNumber: serial(), Subject: pkix.Name{CommonName: "axbus hub"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(2, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			leaf.IPAddresses = append(leaf.IPAddresses, ip)
		} else if n != "" {
			leaf.DNSNames = append(leaf.DNSNames, n)
		}
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return "", "", "", err
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		return "", "", "", err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", "", "", err
	}
	for _, w := range []struct {
		path, kind string
		der        []byte
		mode       os.FileMode
	}{{caFile, "CERTIFICATE", caDER, 0o644}, {certFile, "CERTIFICATE", der, 0o644}, {keyFile, "PRIVATE KEY", keyDER, 0o600}} {
		if err := writeFileAtomic(w.path, pem.EncodeToMemory(&pem.Block{Type: w.kind, Bytes: w.der}), w.mode); err != nil {
			return "", "", "", err
		}
	}
	return caFile, certFile, keyFile, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}
