package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/axbus/axbus/embedded"
)

// runFixture sends one control request to the GTK fixture app of the daemon's private headless
// desktop (`axbus serve --headless`): a way to change the app from a second terminal and watch
// the events, before and besides axbus's own commands.
func runFixture(ctx context.Context, args []string, out io.Writer) error {
	var stateDir string
	fs := newFlags("fixture", "[--state-dir DIR] CMD [KEY=VALUE ...]   e.g. fixture toggle, fixture set_text text=hello, fixture state")
	fs.StringVar(&stateDir, "state-dir", "", "state dir of the daemon that runs the headless desktop")
	if err := parse(fs, args, 64); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	req := map[string]any{"cmd": fs.Arg(0)}
	for _, kv := range fs.Args()[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "axbus fixture: %q is not KEY=VALUE\n", kv)
			return errUsage
		}
		var parsed any
		if json.Unmarshal([]byte(v), &parsed) != nil {
			parsed = v // a bare string
		}
		req[k] = parsed
	}
	info, err := embedded.Discover(stateDir)
	if err != nil {
		return err
	}
	socks, _ := filepath.Glob(filepath.Join(info.StateDir, "headless", "*.sock"))
	if len(socks) == 0 {
		return fmt.Errorf("no fixture app: the daemon of %s runs no headless desktop (start it with axbus serve --headless always)", info.StateDir)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socks[0])
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return err
	}
	var reply any
	if err := json.Unmarshal(line, &reply); err != nil {
		return fmt.Errorf("fixture reply not understood: %s", line)
	}
	return printJSON(out, reply)
}
