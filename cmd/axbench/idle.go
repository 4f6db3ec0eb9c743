package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// benchIdleRSS: the resident memory of `axbus serve` on the demo desktop after it settles.
func benchIdleRSS() ([]row, error) {
	dir, err := os.MkdirTemp("", "axbench-idle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := *axbusBin
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%s missing: run make build", bin)
	}
	cmd := exec.Command(bin, "serve", "--backend", "sim", "--state-dir", dir, "--listen", "127.0.0.1:0", "--log-level", "error")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	time.Sleep(3 * time.Second)
	rss, err := vmRSS(cmd.Process.Pid)
	if err != nil {
		return nil, err
	}
	return []row{{"idle", "daemon RSS after 3 s idle", rss, "axbus serve, sim demo desktop, JetStream on", "", ""}}, nil
}

func vmRSS(pid int) (string, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("no VmRSS for pid %d", pid)
}
