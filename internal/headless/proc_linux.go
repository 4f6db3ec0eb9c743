//go:build linux

package headless

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// proc is a process identified by pid and start time, so that a reused pid is never mistaken for it.
type proc struct {
	pid   int
	start uint64 // clock ticks since boot (field 22 of /proc/PID/stat)
	name  string // for messages
}

// procStat reads /proc/PID/stat: the command name, state, parent pid and start time.
func procStat(pid int) (name string, state byte, ppid int, start uint64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, 0, 0, false
	}
	// "pid (comm) state ppid ..." where comm may hold spaces and parentheses: split at the last ')'.
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return "", 0, 0, 0, false
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 20 {
		return "", 0, 0, 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	start, _ = strconv.ParseUint(f[19], 10, 64) // field 22 of the whole line
	return string(b[open+1 : close]), f[0][0], ppid, start, true
}

// procOf identifies a live process; ok is false when it does not exist.
func procOf(pid int) (proc, bool) {
	name, state, _, start, ok := procStat(pid)
	if !ok || state == 'Z' || state == 'X' {
		return proc{}, false
	}
	return proc{pid: pid, start: start, name: name}, true
}

// alive reports whether p still runs: the pid exists with the same start time and is not a zombie.
func (p proc) alive() bool {
	_, state, _, start, ok := procStat(p.pid)
	return ok && start == p.start && state != 'Z' && state != 'X'
}

// signal sends sig to p unless its pid now belongs to another process.
func (p proc) signal(sig syscall.Signal) {
	if p.alive() {
		_ = syscall.Kill(p.pid, sig)
	}
}

// pids lists the numeric entries of /proc.
func pids() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]int, 0, len(entries))
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// markedProcs lists the live processes (other than this one) whose environment holds
// AXBUS_HEADLESS_SESSION=dir: everything started in the session, activated services included. Processes whose
// environment cannot be read (another user's) are skipped. Chromium writes its process titles over its
// environment, so its processes are found by their command line instead, which holds --user-data-dir=dir/....
func markedProcs(dir string) []proc {
	want := []byte(sessionMarker + "=" + dir)
	profile := []byte("--user-data-dir=" + dir + "/")
	self := os.Getpid()
	var out []proc
	for _, pid := range pids() {
		if pid == self {
			continue
		}
		if marked(pid, "environ", want, true) || marked(pid, "cmdline", profile, false) {
			if p, ok := procOf(pid); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// marked reports whether /proc/PID/<file> holds want: as one of its NUL-separated entries (exact), or anywhere
// (a command line that its process rewrote into one string, as Chromium does).
func marked(pid int, file string, want []byte, exact bool) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/" + file)
	if err != nil || !bytes.Contains(b, want) {
		return false
	}
	if !exact {
		return true
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// descends reports whether pid is a descendant of ancestor (its child, grandchild, ...), following parent
// pids up to init.
func descends(pid, ancestor int) bool {
	for range 64 { // deeper than any process tree of a session
		_, _, ppid, _, ok := procStat(pid)
		switch {
		case !ok || ppid <= 1:
			return false
		case ppid == ancestor:
			return true
		}
		pid = ppid
	}
	return false
}

// anyMarked reports whether a live process (other than this one) has the entry want (KEY=VALUE) in its
// environment.
func anyMarked(want []byte) bool {
	self := os.Getpid()
	for _, pid := range pids() {
		if pid != self && marked(pid, "environ", want, true) {
			if _, ok := procOf(pid); ok {
				return true
			}
		}
	}
	return false
}
