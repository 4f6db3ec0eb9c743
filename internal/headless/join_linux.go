//go:build linux

package headless

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// JoinEnv is the environment for a program started into the running session of dir (the one a
// daemon's --headless desktop keeps in <state dir>/headless), read from its session.env: the
// caller's environment without its desktop, bus and accessibility variables, plus the
// session's. The program carries the session's marker, so the session's Close ends it too.
func JoinEnv(dir string) ([]string, error) {
	path := filepath.Join(dir, "session.env")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("headless: no session in %s: %w", dir, err)
	}
	defer f.Close()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(unsetEnv, k) {
			env = append(env, kv)
		}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := parseExport(sc.Text())
		if ok && k != "AT_SPI_BUS_ADDRESS" { // found through the session bus, as on a desktop
			env = append(env, k+"="+v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("headless: %s: %w", path, err)
	}
	return append(env, sessionMarker+"="+dir), nil
}

// exportLine is a shell's export of k=v, the value single-quoted: a quote inside it is closed,
// escaped and reopened.
func exportLine(k, v string) string {
	return "export " + k + "='" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// parseExport reads one line of session.env as writeSessionEnv writes it: export K='V', a
// quote inside the value closed, escaped and reopened.
func parseExport(line string) (key, value string, ok bool) {
	rest, ok := strings.CutPrefix(line, "export ")
	if !ok {
		return "", "", false
	}
	key, quoted, ok := strings.Cut(rest, "=")
	if !ok || len(quoted) < 2 || quoted[0] != '\'' || quoted[len(quoted)-1] != '\'' {
		return "", "", false
	}
	return key, strings.ReplaceAll(quoted[1:len(quoted)-1], `'\''`, `'`), true
}
