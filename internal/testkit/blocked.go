package testkit

import (
	"runtime"
	"strings"
)

// Blocked counts the goroutines that wait (blocked, not running) with fn on their stack, fn a
// function's name as a traceback prints it ("github.com/axbus/axbus/commands.(*Engine).lock").
// A test that must know that a goroutine waits where it should (for a lock, for a sink to
// return) looks at its stack with Eventually, rather than sleeping a while and hoping it got
// there.
func Blocked(fn string) int {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, frames, _ := strings.Cut(g, "\n")
		// "goroutine 7 [chan receive]:": a running or runnable one is on its way, not waiting.
		if strings.Contains(header, "[running]") || strings.Contains(header, "[runnable]") {
			continue
		}
		if strings.Contains(frames, fn+"(") {
			count++
		}
	}
	return count
}
