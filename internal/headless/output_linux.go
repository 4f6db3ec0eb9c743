//go:build linux

package headless

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
)

// maxOutputLines is how many of its last stdout lines an app keeps for Output and WaitOutput: a fixture prints
// a few, a chatty program's older lines are in its log.
const maxOutputLines = 10000

// output is what an app printed on stdout, line by line: the fixtures' READY, SAVED, TEXT and CHECKED lines,
// which tell a test what the app did, independently of accessibility.
type output struct {
	mu      sync.Mutex
	lines   []string
	ended   bool          // stdout was closed: the app and everything that inherited it are gone
	changed chan struct{} // closed (and replaced) at each new line and at the end
}

func newOutput() *output {
	return &output{changed: make(chan struct{})}
}

// read keeps the lines of r, appending each to the log at logPath too, until r ends; it closes ready at the
// line readyLine, and drained once r ends.
func (o *output) read(r io.ReadCloser, logPath, readyLine string, ready, drained chan<- struct{}) {
	defer close(drained)
	defer r.Close()
	logf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		logf = nil // the lines are still kept
	} else {
		defer logf.Close()
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	readySeen := false
	for sc.Scan() {
		line := sc.Text()
		if !readySeen && line == readyLine {
			readySeen = true
			close(ready)
		}
		if logf != nil {
			_, _ = logf.WriteString(line + "\n")
		}
		o.add(line)
	}
	// A line longer than the scanner takes ends the reading: what follows is not kept, but the pipe is
	// drained, so that the app never blocks on a full pipe.
	_, _ = io.Copy(io.Discard, r)
	o.mu.Lock()
	o.ended = true
	close(o.changed)
	o.mu.Unlock()
}

func (o *output) add(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.lines) == maxOutputLines {
		o.lines = slices.Delete(o.lines, 0, maxOutputLines/10)
	}
	o.lines = append(o.lines, line)
	close(o.changed)
	o.changed = make(chan struct{})
}

// Output lists the lines the app printed on stdout so far (its last 10,000), READY included.
func (a *App) Output() []string {
	if a.out == nil { // an App the session did not start
		return nil
	}
	a.out.mu.Lock()
	defer a.out.mu.Unlock()
	return slices.Clone(a.out.lines)
}

// WaitOutput returns once the app has printed line on stdout (at any time since it started: a line printed
// before the call counts), e.g. "SAVED 1" of a matrix fixture. It fails when the app's stdout closes without
// it (the app exited) or ctx ends, the error listing the app's last lines.
func (a *App) WaitOutput(ctx context.Context, line string) error {
	if a.out == nil {
		return fmt.Errorf("headless: %s app %d: its output is not read (not started by a session)", a.Kind, a.PID)
	}
	for {
		a.out.mu.Lock()
		found, ended, changed := slices.Contains(a.out.lines, line), a.out.ended, a.out.changed
		last := slices.Clone(a.out.lines[max(0, len(a.out.lines)-8):])
		a.out.mu.Unlock()
		switch {
		case found:
			return nil
		case ended:
			return fmt.Errorf("headless: %s app %d exited without printing %q (its last lines: %q)", a.Kind, a.PID, line, last)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("headless: %s app %d has not printed %q: %w (its last lines: %q)", a.Kind, a.PID, line,
				ctx.Err(), last)
		}
	}
}
