package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/testcert"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/nats-io/nats.go"
)

// `axbus serve --listen 0.0.0.0:PORT` (or :PORT, every interface) without TLS or
// --insecure-remote exits non-zero at once, says what to do, and leaves no daemon behind.
func TestServeRefusesRemoteListenWithoutTLS(t *testing.T) {
	port := testdaemon.FreePort(t)
	for _, addr := range []string{"0.0.0.0:" + port, ":" + port} {
		dir := filepath.Join(t.TempDir(), "state")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var out, errb strings.Builder
		code := run(ctx, []string{"serve", "--backend", "sim", "--state-dir", dir, "--listen", addr}, &out, &errb)
		refusedInTime := ctx.Err() == nil
		cancel()
		if code != exitUsage || !refusedInTime {
			t.Fatalf("serve --listen %s: exit %d (refused before the deadline: %v), want a refusal with exit %d", addr, code, refusedInTime, exitUsage)
		}
		line := testdaemon.OneLine(t, errb.String())
		for _, want := range []string{"refusing to listen on " + addr + " without TLS", "--tls-cert FILE --tls-key FILE", "--insecure-remote", "--listen 127.0.0.1:" + port} {
			if !strings.Contains(line, want) {
				t.Errorf("stderr %q lacks %q", line, want)
			}
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the refused serve created its state dir: %v", err)
		}
	}
}

// With --insecure-remote it serves on every interface, and the banner and status say so; the
// banner shows the bound address.
func TestServeInsecureRemoteSaysSo(t *testing.T) {
	s := startServe(t, "--listen", "0.0.0.0:0", "--insecure-remote")
	info, err := embedded.Discover(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	host, port, err := net.SplitHostPort(info.Listen)
	if err != nil || port == "0" || !net.ParseIP(host).IsUnspecified() {
		t.Fatalf("daemon.json listen = %q, want the bound wildcard address", info.Listen)
	}
	s.bannerHas(t, "listening:", info.Listen+" (all interfaces: other machines can connect)")
	s.bannerHas(t, "client URL:", "nats://127.0.0.1:"+port+" (this machine)")
	s.bannerHas(t, "WARNING:", "reachable from the network WITHOUT TLS")
	s.bannerHas(t, "WARNING:", "INSECURE")

	out, errOut, code := s.cli(t, "status")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errOut)
	}
	testdaemon.MustMatch(t, "status.reply", []byte(out))
	want := api.ListenStatus{URL: "nats://127.0.0.1:" + port, Address: info.Listen, InsecureRemote: true}
	if st := testdaemon.Decode[api.StatusReply](t, out); st.Listen == nil || *st.Listen != want {
		t.Fatalf("status listen = %+v, want %+v", st.Listen, want)
	}
}

// The default, loopback, says so and gives no warning.
func TestServeLoopbackBanner(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0")
	info, err := embedded.Discover(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	s.bannerHas(t, "listening:", info.Listen+" (loopback: this machine only)")
	if strings.Contains(strings.Join(s.banner, "\n"), "WARNING") {
		t.Errorf("a loopback daemon warns:\n%s", strings.Join(s.banner, "\n"))
	}
	out, _, code := s.cli(t, "status")
	want := api.ListenStatus{URL: info.URL, Address: info.Listen, Loopback: true}
	if st := testdaemon.Decode[api.StatusReply](t, out); code != 0 || st.Listen == nil || *st.Listen != want {
		t.Fatalf("status: exit %d, listen %+v, want %+v", code, st.Listen, want)
	}
}

// With --tls-cert and --tls-key a daemon on every interface requires TLS: the axbus CLI finds it
// and connects over TLS by itself, a plaintext client is refused, and a nats.go TLS client that
// trusts the certificate works, as does the CLI's --server with --tls-ca.
func TestServeTLS(t *testing.T) {
	certFile, keyFile := testcert.Write(t, t.TempDir())
	s := startServe(t, "--listen", "0.0.0.0:0", "--tls-cert", certFile, "--tls-key", keyFile)
	info, err := embedded.Discover(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(info.Listen)
	tlsURL := "tls://127.0.0.1:" + port
	if info.URL != tlsURL || info.TLSCertFile != certFile {
		t.Fatalf("daemon.json url %q cert %q, want %s and %s", info.URL, info.TLSCertFile, tlsURL, certFile)
	}
	s.bannerHas(t, "client URL:", tlsURL)
	s.bannerHas(t, "TLS:", "required; certificate "+certFile)
	s.bannerHas(t, "try:", "--tlsca "+certFile)
	if strings.Contains(strings.Join(s.banner, "\n"), "WARNING") {
		t.Errorf("a TLS daemon warns:\n%s", strings.Join(s.banner, "\n"))
	}

	out, errOut, code := s.cli(t, "status")
	if code != 0 {
		t.Fatalf("status over TLS: exit %d: %s", code, errOut)
	}
	testdaemon.MustMatch(t, "status.reply", []byte(out))
	want := api.ListenStatus{URL: tlsURL, Address: info.Listen, TLS: true}
	if st := testdaemon.Decode[api.StatusReply](t, out); st.Listen == nil || *st.Listen != want {
		t.Fatalf("status listen = %+v, want %+v", st.Listen, want)
	}

	if infoLine, reply := plaintextConnect(t, "127.0.0.1:"+port); !strings.Contains(infoLine, `"tls_required":true`) || reply != "" {
		t.Fatalf("plaintext client: INFO %q, then %q; want TLS required and the connection closed", infoLine, reply)
	}
	nkey, err := nats.NkeyOptionFromSeed(info.CredsFile)
	if err != nil {
		t.Fatal(err)
	}
	// nats.go switches to TLS when the server requires it; without trusting the certificate it fails.
	if nc, err := nats.Connect("nats://127.0.0.1:"+port, nkey, nats.NoReconnect(), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a client that trusts only the system roots connected")
	}
	nc, err := nats.Connect(tlsURL, nkey, nats.RootCAs(certFile), nats.NoReconnect(), nats.Timeout(2*time.Second))
	if err != nil {
		t.Fatalf("TLS client: %v", err)
	}
	defer nc.Close()
	m, err := nc.Request(api.NewSubjects(api.DefaultPrefix, "testhost").Endpoint("status"), []byte(`{}`), 5*time.Second)
	if err != nil {
		t.Fatalf("status over nats.go TLS: %v", err)
	}
	testdaemon.MustMatch(t, "status.reply", m.Data)

	var sout, serr strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = run(ctx, []string{"status", "--server", tlsURL, "--nkey", info.CredsFile, "--tls-ca", certFile, "--host", "testhost"}, &sout, &serr)
	if code != 0 {
		t.Fatalf("status --server %s --tls-ca: exit %d: %s", tlsURL, code, serr.String())
	}
	testdaemon.MustMatch(t, "status.reply", []byte(sout.String()))
}

// plaintextConnect speaks plaintext NATS to addr: it reads INFO, sends CONNECT and PING, and
// returns the INFO line and what came back before the server closed the connection.
func plaintextConnect(t *testing.T, addr string) (infoLine, reply string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(conn)
	if infoLine, err = r.ReadString('\n'); err != nil {
		t.Fatalf("INFO: %v", err)
	}
	if _, err := io.WriteString(conn, "CONNECT {\"verbose\":false,\"protocol\":1}\r\nPING\r\n"); err != nil {
		return infoLine, ""
	}
	rest, err := io.ReadAll(r)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server neither answered nor closed in 5 s (read %q)", rest)
	}
	return infoLine, string(rest)
}

// servedDaemon is `axbus serve` run in-process until the test ends, with its banner.
type servedDaemon struct {
	dir    string
	banner []string
}

// startServe runs `axbus serve --backend sim --host testhost` with a private state dir and args,
// returns once its banner is out, and stops it at the end of the test, which then wants exit 0.
func startServe(t *testing.T, args ...string) *servedDaemon {
	t.Helper()
	s := &servedDaemon{dir: t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb strings.Builder
	full := append([]string{"serve", "--backend", "sim", "--host", "testhost", "--state-dir", s.dir, "--log-level", "warn"}, args...)
	go func() {
		code := run(ctx, full, pw, &errb)
		_ = pw.Close()
		done <- code
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		s.banner = append(s.banner, sc.Text())
		if strings.Contains(sc.Text(), "try:") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	stop := func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(15 * time.Second):
			t.Fatal("serve did not stop in 15 s")
			return -1
		}
	}
	if len(s.banner) == 0 || !strings.Contains(s.banner[len(s.banner)-1], "try:") {
		code := stop()
		t.Fatalf("serve %v: no banner; exit %d, stderr %q, printed %q", args, code, errb.String(), s.banner)
	}
	t.Cleanup(func() {
		if code := stop(); code != 0 {
			t.Errorf("serve exited %d: %s", code, errb.String())
		}
	})
	return s
}

// bannerHas fails unless the banner line starting with label contains want.
func (s *servedDaemon) bannerHas(t *testing.T, label, want string) {
	t.Helper()
	for _, l := range s.banner {
		if strings.HasPrefix(strings.TrimSpace(l), label) && strings.Contains(l, want) {
			return
		}
	}
	t.Errorf("no banner line %q containing %q:\n%s", label, want, strings.Join(s.banner, "\n"))
}

// cli runs a client command against the served daemon, found through its state dir.
func (s *servedDaemon) cli(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return (&testDaemon{&testdaemon.Daemon{Dir: s.dir}}).cli(t, args...)
}
