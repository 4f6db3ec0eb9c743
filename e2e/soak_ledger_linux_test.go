package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/model"
)

// soakLate is how far past its own deadline an answer may come and still count as one.
const soakLate = 5 * time.Second

// ledger is every request of the soak and how it was answered: done, or a coded error (an
// answer too: LEASE_HELD, TIMEOUT of a wait, UNAVAILABLE while the daemon restarts), or none
// within the request's deadline and soakLate.
type ledger struct {
	mu    sync.Mutex
	start time.Time // the run's: answers are told by how far into it they came
	kinds map[string]*tally
	// unavailable is when each UNAVAILABLE came, into the run: the daemon's answer while it
	// restarts, a finding at any other moment.
	unavailable []time.Duration
}

type tally struct {
	requests, done, late int
	codes                map[model.Code]int
	worst                time.Duration
	lateExamples         []string
	firstOf              map[model.Code]string // a code's first answer: when, and what it said
}

func newLedger() *ledger { return &ledger{kinds: map[string]*tally{}} }

// track makes one request with deadline plus soakLate to answer, and notes how it went.
func (s *soakRun) track(kind string, deadline time.Duration, call func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(s.ctx, deadline+2*soakLate)
	defer cancel()
	start := time.Now()
	err := call(ctx)
	if s.ctx.Err() != nil {
		return // the run ended under it: not the daemon's doing
	}
	s.ledger.note(kind, err == nil, time.Since(start), deadline, err)
}

// note counts one request of kind: done or not, how long its answer took against its deadline.
func (l *ledger) note(kind string, done bool, took, deadline time.Duration, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.kinds[kind]
	if t == nil {
		t = &tally{codes: map[model.Code]int{}, firstOf: map[model.Code]string{}}
		l.kinds[kind] = t
	}
	t.requests++
	t.worst = max(t.worst, took)
	if done {
		t.done++
	} else if err != nil {
		c := model.CodeOf(err)
		if c == model.CodeUnavailable {
			l.unavailable = append(l.unavailable, time.Since(l.start))
		}
		if t.codes[c]++; t.codes[c] == 1 {
			t.firstOf[c] = time.Since(l.start).Round(time.Second).String() + " " + model.Excerpt(err.Error())
		}
	}
	if took > deadline+soakLate {
		t.late++
		if len(t.lateExamples) < 3 {
			t.lateExamples = append(t.lateExamples, fmt.Sprintf("%v (deadline %v): %v", took.Round(time.Millisecond), deadline, err))
		}
	}
}

// report is one line per kind of request, and the requests answered late or never.
func (l *ledger) report() (lines []string, late []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, kind := range slices.Sorted(maps.Keys(l.kinds)) {
		t := l.kinds[kind]
		var codes []string
		for _, c := range slices.Sorted(maps.Keys(t.codes)) {
			codes = append(codes, fmt.Sprintf("%s %d", c, t.codes[c]))
		}
		lines = append(lines, fmt.Sprintf("| %s | %d | %d | %s | %v | %d |", kind, t.requests, t.done, strings.Join(codes, ", "), t.worst.Round(time.Millisecond), t.late))
		for _, e := range t.lateExamples {
			late = append(late, kind+": "+e)
		}
		for _, c := range slices.Sorted(maps.Keys(t.firstOf)) {
			lines = append(lines, fmt.Sprintf("|  | first %s: %s |  |  |  |  |", c, t.firstOf[c]))
		}
	}
	return lines, late
}

// unavailableOutside is how many UNAVAILABLE answers came outside window, and the first's moment.
func (l *ledger) unavailableOutside(window [2]time.Duration) (n int, first time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, at := range l.unavailable {
		if at < window[0] || at > window[1] {
			if n++; n == 1 {
				first = at
			}
		}
	}
	return n, first
}

// total is how many requests the ledger counted.
func (l *ledger) total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, t := range l.kinds {
		n += t.requests
	}
	return n
}
