package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

const clockTicks = 100 // USER_HZ: the unit of utime and stime in /proc/<pid>/stat on Linux

// cpuMeter adds up the CPU time processes spend over timed spans and the spans' wall time: how
// busy each was while the bench waited for something. A walk that keeps its app on a core the
// whole time is as fast as the app answers.
type cpuMeter struct {
	pids  []int
	ticks []uint64
	wall  time.Duration
}

func newCPUMeter(pids ...int) *cpuMeter {
	return &cpuMeter{pids: pids, ticks: make([]uint64, len(pids))}
}

// span runs f and adds the CPU each process spent and the wall time f took.
func (m *cpuMeter) span(f func() error) error {
	before := make([]uint64, len(m.pids))
	for i, pid := range m.pids {
		t, err := cpuTicks(pid)
		if err != nil {
			return err
		}
		before[i] = t
	}
	start := time.Now()
	if err := f(); err != nil {
		return err
	}
	m.wall += time.Since(start)
	for i, pid := range m.pids {
		t, err := cpuTicks(pid)
		if err != nil {
			return err
		}
		m.ticks[i] += t - before[i]
	}
	return nil
}

// share is the i-th process's CPU over the spans, in percent of one core.
func (m *cpuMeter) share(i int) float64 {
	if m.wall <= 0 {
		return 0
	}
	return 100 * float64(m.ticks[i]) / clockTicks / m.wall.Seconds()
}

// cpuTicks is utime + stime of pid, in clock ticks.
func cpuTicks(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces and parentheses: the fields start after the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	utime, err1 := strconv.ParseUint(f[11], 10, 64) // field 14
	stime, err2 := strconv.ParseUint(f[12], 10, 64) // field 15
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return utime + stime, nil
}
