//go:build !linux

package handlers

// residentAndFiles is not read outside Linux: reading it on macOS needs cgo (proc_pidinfo),
// so the resident memory is 0 and the file descriptors -1 (uncounted).
func residentAndFiles() (rss uint64, fds int) { return 0, -1 }
