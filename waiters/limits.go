package waiters

import (
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer/live"
)

// A wait matches against live copies of windows, read with model.WholeBudget. A window past
// that budget, or one still being read when the wait times out, is not seen whole: the outcome
// says so (Result.Limits) rather than time out silently.

// limitsSource reports, when a wait ends unmet, what kept it from seeing its windows whole.
type limitsSource struct {
	mu sync.Mutex
	fn func() []api.WaitLimit
}

func (s *limitsSource) set(fn func() []api.WaitLimit) {
	s.mu.Lock()
	s.fn = fn
	s.mu.Unlock()
}

func (s *limitsSource) limits() []api.WaitLimit {
	s.mu.Lock()
	fn := s.fn
	s.mu.Unlock()
	if fn == nil {
		return nil
	}
	return fn()
}

// limitsFor lists the copies of wins that a limit cut short or that are still being read.
func (aw *appWatch) limitsFor(wins []model.Window) []api.WaitLimit {
	aw.mu.Lock()
	lives := make([]*live.Window, len(wins))
	for i, win := range wins {
		lives[i] = aw.live[win.Ref]
	}
	aw.mu.Unlock()
	var out []api.WaitLimit
	for i, lw := range lives {
		if lw == nil {
			continue
		}
		l := api.WaitLimit{Window: wins[i].RefOf(), Budget: model.WholeBudget()}
		if !lw.Loaded() {
			l.Reading = true
		} else if l.Cut, l.Elements = lw.Limits(); len(l.Cut) == 0 {
			continue
		}
		out = append(out, l)
	}
	return out
}
