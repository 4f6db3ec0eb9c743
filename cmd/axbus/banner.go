package main

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"os"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
)

// printBanner says what a started daemon serves, where it listens, who can reach it and how.
// Its "client URL:" line is the one scripts wait for.
func printBanner(out io.Writer, d *daemon.Daemon) {
	info := d.Server.Info()
	fmt.Fprintf(out, "axbus %s serving host %q with the %s backend\n", bus.Version, d.Subjects.Host, d.Backend.Platform())
	fmt.Fprintf(out, "  listening:   %s\n", describeListener(info))
	fmt.Fprintf(out, "  client URL:  %s\n", describeURLs(info))
	if info.TLS() {
		fmt.Fprintf(out, "  TLS:         required; certificate %s (sha256 %s): axbus clients accept exactly it, other tools check its names\n",
			info.TLSCertFile, info.TLSCertSHA256)
	}
	fmt.Fprintf(out, "  credentials: %s (nkey seed)\n", info.CredsFile)
	fmt.Fprintf(out, "  subjects:    %s (events), %s (snapshot diffs, polled while subscribed), %s.* (requests)\n", d.Subjects.AllEvents(), d.Subjects.AllSnaps(), d.Subjects.API())
	if h := d.Desktop; h != nil {
		fmt.Fprintf(out, "  desktop:     no desktop session here, so a private headless one runs (DISPLAY %s)\n", h.Session.Display)
		fmt.Fprintf(out, "               with the GTK3 fixture app %q (pid %d); change it with: axbus fixture toggle\n", headless.AppName(h.App.Kind), h.App.PID)
	}
	if info.InsecureRemote {
		fmt.Fprintf(out, "  WARNING:     INSECURE (--insecure-remote): the client port %s is reachable from the network WITHOUT TLS.\n", info.Listen)
		fmt.Fprintln(out, "               Clients still need the nkey seed, but anyone on the network path can read and alter")
		fmt.Fprintln(out, "               everything: window contents, typed text, values set. Prefer --tls-cert FILE --tls-key FILE.")
	}
	tlsCA := ""
	if info.TLS() {
		tlsCA = " --tlsca " + info.TLSCertFile
	}
	fmt.Fprintf(out, "  try:         axbus apps | axbus tail | nats --server %s%s --nkey %s micro ls\n", info.URL, tlsCA, info.CredsFile)
}

// describeListener is the bound address and who can connect to it.
func describeListener(info embedded.Info) string {
	switch {
	case info.Loopback:
		return info.Listen + " (loopback: this machine only)"
	case info.AllInterfaces():
		return info.Listen + " (all interfaces: other machines can connect)"
	default:
		return info.Listen + " (other machines can connect)"
	}
}

// describeURLs is the URL a client on this machine uses and, when the daemon listens on every
// interface, the one other machines use (by this machine's name).
func describeURLs(info embedded.Info) string {
	if !info.AllInterfaces() {
		return info.URL
	}
	u, err := url.Parse(info.URL)
	name, herr := os.Hostname()
	if err != nil || herr != nil || name == "" {
		return info.URL + " (this machine)"
	}
	remote := u.Scheme + "://" + net.JoinHostPort(name, u.Port())
	return info.URL + " (this machine), " + remote + " (other machines)"
}
