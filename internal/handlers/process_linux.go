//go:build linux

package handlers

import (
	"bytes"
	"os"
	"strconv"
)

// residentAndFiles is the process's resident memory (the second field of /proc/self/statm, in
// pages: the VmRSS of /proc/self/status without its formatting) and its open file descriptors
// (the entries of /proc/self/fd, less the one the count itself opens); -1 files when unread.
func residentAndFiles() (rss uint64, fds int) {
	if statm, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := bytes.Fields(statm); len(f) > 1 {
			if pages, err := strconv.ParseUint(string(f[1]), 10, 64); err == nil {
				rss = pages * uint64(os.Getpagesize())
			}
		}
	}
	fds = -1
	if d, err := os.Open("/proc/self/fd"); err == nil {
		names, err := d.Readdirnames(-1)
		_ = d.Close()
		if err == nil {
			fds = len(names) - 1
		}
	}
	return rss, fds
}
