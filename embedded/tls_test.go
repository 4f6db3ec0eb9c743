package embedded

import (
	"bufio"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/internal/testcert"
)

// certFileDER returns the DER of the first certificate in a PEM file.
func certFileDER(t *testing.T, path string) []byte {
	t.Helper()
	block, _ := pem.Decode(readFile(t, path))
	if block == nil {
		t.Fatalf("%s: no PEM block", path)
	}
	return block.Bytes
}

// With TLS the listener may listen on every interface; a plaintext client
// is refused by the server itself, a TLS client that trusts the certificate
// works, and Connect finds the daemon and trusts exactly its certificate.
func TestTLSRequired(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := testcert.Write(t, t.TempDir())
	s := startTest(t, dir, WithListen("0.0.0.0:0"), WithTLS(certFile, keyFile))
	info := s.Info()

	_, port, _ := net.SplitHostPort(info.Listen)
	if info.URL != "tls://127.0.0.1:"+port || !info.TLS() || info.Loopback || info.InsecureRemote {
		t.Fatalf("info = %+v, want tls://127.0.0.1:%s, TLS, not loopback, not insecure", info, port)
	}
	if info.TLSCertFile != certFile || info.TLSCertSHA256 != certPin(certFileDER(t, certFile)) {
		t.Errorf("TLS cert %q sha256 %q, want %q and the pin of its DER", info.TLSCertFile, info.TLSCertSHA256, certFile)
	}
	if disc, err := Discover(dir); err != nil || disc != info {
		t.Errorf("daemon.json = %+v, %v; want %+v", disc, err, info)
	}
	plainAddr := "127.0.0.1:" + port

	// The server itself refuses plaintext: the same signed CONNECT that a
	// plaintext daemon answers (below) gets no PONG here.
	infoLine, reply, err := plaintextHandshake(t, plainAddr, s.CredsFile())
	if !strings.Contains(infoLine, `"tls_required":true`) {
		t.Errorf("INFO %q does not require TLS", infoLine)
	}
	if err == nil || strings.HasPrefix(reply, "PONG") {
		t.Fatalf("a plaintext client got %q, %v; want the connection closed", reply, err)
	}
	t.Logf("plaintext client: reply %q, %v", reply, err)

	// nats.go switches to TLS by itself when the server requires it (so it
	// never sends plaintext); without trusting the certificate it fails.
	nkey, err := nats.NkeyOptionFromSeed(s.CredsFile())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"nats://" + plainAddr, info.URL} {
		if nc, err := nats.Connect(u, nkey, nats.NoReconnect(), nats.Timeout(2*time.Second)); err == nil {
			nc.Close()
			t.Fatalf("%s: a client that trusts only the system roots connected", u)
		}
	}

	rsub, err := s.Conn().Subscribe("svc.echo", func(m *nats.Msg) { _ = m.Respond(m.Data) })
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rsub.Unsubscribe() }()
	if err := s.Conn().Flush(); err != nil {
		t.Fatal(err)
	}
	echo := func(what string, nc *nats.Conn) {
		t.Helper()
		defer nc.Close()
		if !nc.TLSRequired() {
			t.Errorf("%s: the connection is not TLS", what)
		}
		if m, err := nc.Request("svc.echo", []byte(what), 2*time.Second); err != nil || string(m.Data) != what {
			t.Errorf("%s: request: %v %v", what, m, err)
		}
	}
	// A TLS client trusting the certificate as its root CA, checking its names.
	nc, err := nats.Connect(info.URL, nkey, nats.RootCAs(info.TLSCertFile), nats.NoReconnect(), nats.Timeout(2*time.Second))
	if err != nil {
		t.Fatalf("TLS client with the certificate as root CA: %v", err)
	}
	echo("root CA", nc)
	// Connect: discovery through daemon.json, the certificate pinned.
	nc, _, err = Connect(dir)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	echo("Connect", nc)

	// A certificate other than the pinned one is refused.
	wrong := info
	wrong.TLSCertSHA256 = strings.Repeat("0", 64)
	if err := writeInfo(dir, wrong); err != nil {
		t.Fatal(err)
	}
	if nc, _, err := Connect(dir, nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("Connect accepted a certificate other than the pinned one")
	} else if !strings.Contains(err.Error(), "not the one daemon.json names") {
		t.Errorf("pin mismatch: %v", err)
	}
}

// The raw plaintext exchange of TestTLSRequired gets its PONG from a
// daemon that does not require TLS: the refusal there is TLS's.
func TestPlaintextHandshakeBaseline(t *testing.T) {
	s := startTest(t, t.TempDir())
	u, err := url.Parse(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	infoLine, reply, err := plaintextHandshake(t, u.Host, s.CredsFile())
	if err != nil || !strings.HasPrefix(reply, "PONG") {
		t.Fatalf("INFO %q, reply %q, %v; want PONG", infoLine, reply, err)
	}
}

func TestTLSBadFiles(t *testing.T) {
	certFile, keyFile := testcert.Write(t, t.TempDir())
	otherCert, _ := testcert.Write(t, t.TempDir())
	missing := filepath.Join(t.TempDir(), "missing.pem")
	for name, files := range map[string][2]string{
		"no key":            {certFile, ""},
		"no cert":           {"", keyFile},
		"missing cert":      {missing, keyFile},
		"key of other cert": {otherCert, keyFile},
	} {
		dir := filepath.Join(t.TempDir(), "state")
		s, err := Start(WithStateDir(dir), WithListen("127.0.0.1:0"), WithTLS(files[0], files[1]), WithLogger(testLogger()))
		if err == nil {
			shutdown(t, s)
			t.Fatalf("%s: Start succeeded", name)
		}
		var tfe *TLSFilesError
		if !errors.As(err, &tfe) || !strings.Contains(suggestion(err), "--tls-key") {
			t.Errorf("%s: err = %T %v, suggestion %q", name, err, err, suggestion(err))
		}
		assertNoFile(t, dir)
	}
}

// plaintextHandshake connects to addr over plain TCP, reads INFO, and
// sends a CONNECT signed with the client nkey and a PING. It returns the
// INFO line and the first line after it (PONG when the server accepted), or
// the error that ended the connection first.
func plaintextHandshake(t *testing.T, addr, credsFile string) (infoLine, reply string, err error) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(conn)
	infoLine, connect := signedConnect(t, r, credsFile, "plaintext")
	if _, err := fmt.Fprintf(conn, "CONNECT %s\r\nPING\r\n", connect); err != nil {
		return infoLine, "", err
	}
	reply, err = r.ReadString('\n')
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("no answer and no close in 5 s: %v", err)
	}
	return infoLine, reply, err
}
