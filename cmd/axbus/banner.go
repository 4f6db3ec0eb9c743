package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
)

// printBanner says what a started daemon serves, where it listens, who can reach it and how,
// with commands that work as printed. Its "client URL:" line is the one scripts wait for.
func printBanner(out io.Writer, d *daemon.Daemon) {
	info := d.Server.Info()
	fmt.Fprintf(out, "axbus %s serving host %q with the %s backend\n", api.Version, d.Subjects.Host, d.Backend.Platform())
	fmt.Fprintf(out, "  listening:   %s\n", describeListener(info))
	fmt.Fprintf(out, "  client URL:  %s\n", describeURLs(info))
	if info.TLS() {
		fmt.Fprintf(out, "  TLS:         required; certificate %s (sha256 %s): axbus clients accept exactly it, other tools check its names\n",
			info.TLSCertFile, info.TLSCertSHA256)
	}
	fmt.Fprintf(out, "  credentials: %s (nkey seed)\n", info.CredsFile)
	fmt.Fprintf(out, "  subjects:    %s (events), %s (snapshot diffs, polled while subscribed), %s.* (requests)\n", d.Subjects.AllEvents(), d.Subjects.AllSnaps(), d.Subjects.API())
	if apps := appNames(d); apps != "" {
		fmt.Fprintf(out, "  apps:        %s\n", apps)
	}
	axbus := selfCommand(info.StateDir)
	if d.Console != nil {
		fmt.Fprintf(out, "  console:     %s (good once; a new one: %s)\n", d.Console.URL(api.RoleMonitor), axbus("console"))
	}
	if h := d.Desktop; h != nil {
		fmt.Fprintf(out, "  desktop:     no desktop session here, so a private headless one runs (DISPLAY %s)\n", h.Session.Display)
		fmt.Fprintf(out, "               with the GTK3 fixture app %q (pid %d); change it with: %s\n", headless.AppName(h.App.Kind), h.App.PID, axbus("fixture toggle"))
		fmt.Fprintf(out, "               start another app in it with: %s (or any program)\n", axbus("desktop run", "gtk3-demo &"))
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
	fmt.Fprintf(out, "  try:         %s | %s | nats --server %s%s --nkey %s micro ls\n", axbus("apps"), axbus("tail"), info.URL, tlsCA, info.CredsFile)
}

// appNames lists the apps the daemon sees as it starts.
func appNames(d *daemon.Daemon) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	apps, err := d.Observer.Apps(ctx)
	if err != nil || len(apps) == 0 {
		return ""
	}
	var names []string
	for _, a := range apps {
		names = append(names, fmt.Sprintf("%s (pid %d)", a.Name, a.PID))
	}
	return strings.Join(names, ", ")
}

// selfCommand is how to run a command of this binary as typed in a shell here: "axbus" when
// PATH finds this very binary, its path otherwise (./bin/axbus after make build); with the
// state dir when it is not the default one.
func selfCommand(stateDir string) func(command string, program ...string) string {
	cmd := "axbus"
	self, err := os.Executable()
	if err == nil {
		self, _ = filepath.EvalSymlinks(self)
		onPath, lerr := exec.LookPath("axbus")
		if lerr == nil {
			onPath, _ = filepath.EvalSymlinks(onPath)
		}
		if lerr != nil || onPath != self {
			cmd = self
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, self); err == nil && !strings.HasPrefix(rel, "..") {
					cmd = "./" + rel
				}
			}
		}
	}
	flags := ""
	if def, err := embedded.DefaultStateDir(); err == nil && def != stateDir {
		flags = " --state-dir " + stateDir
	}
	return func(command string, program ...string) string { // a program's arguments come last: they are its own
		return strings.Join(append([]string{cmd + " " + command + flags}, program...), " ")
	}
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
