package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// procRoot is the kernel's process file system.
const procRoot = "/proc"

// readProc reads what the toolkit diagnosis needs of a process from /proc. A process of another user leaves
// its environment, executable and maps unreadable: what could be read is kept.
func readProc(pid int) procInfo {
	dir := filepath.Join(procRoot, strconv.Itoa(pid))
	p := procInfo{PID: pid}
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return p
	}
	p.Readable = true
	p.PPID = parseStatPPID(string(stat))
	if b, err := os.ReadFile(filepath.Join(dir, "comm")); err == nil {
		p.Comm = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
		p.Cmdline = splitNUL(b)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "environ")); err == nil {
		p.Environ = splitNUL(b)
	}
	if exe, err := os.Readlink(filepath.Join(dir, "exe")); err == nil {
		p.Exe = strings.TrimSuffix(exe, " (deleted)")
		if _, err := os.Stat(filepath.Join(filepath.Dir(p.Exe), "resources", "app.asar")); err == nil {
			p.ElectronApp = true
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "maps")); err == nil {
		p.Libs = parseMaps(string(b))
	}
	return p
}

// procCache reads each process once.
type procCache map[int]procInfo

func (c procCache) get(pid int) procInfo {
	p, ok := c[pid]
	if !ok {
		p = readProc(pid)
		c[pid] = p
	}
	return p
}

// sameProgram says whether two processes run executables of one program: the same directory (Chromium's and
// Firefox's processes share one executable; LibreOffice's oosplash and soffice.bin one directory).
func sameProgram(a, b procInfo) bool {
	return a.Exe != "" && b.Exe != "" && filepath.Dir(a.Exe) == filepath.Dir(b.Exe)
}

// registeredAs finds the app registered with AT-SPI that speaks for the process pid: pid itself, or its parent
// or a child of the same program (Chromium, Firefox and LibreOffice may register from another process than the
// one that owns the window). A parent of another program (a terminal, the shell) does not count: what it
// started is not it. It returns the PID registered, or 0.
func registeredAs(pid int, apps map[int]bool, procs procCache) int {
	if apps[pid] {
		return pid
	}
	p := procs.get(pid)
	if !p.Readable {
		return 0
	}
	if p.PPID > 1 && apps[p.PPID] && sameProgram(p, procs.get(p.PPID)) {
		return p.PPID
	}
	for a := range apps {
		if q := procs.get(a); q.PPID == pid && sameProgram(p, q) {
			return a
		}
	}
	return 0
}
