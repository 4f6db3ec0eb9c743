package sim

import (
	"context"
	"time"
)

// inject arms a fault on a; callers hold d.mu.
func (d *Desktop) inject(a *app, f Fault) {
	switch f.Kind {
	case FaultHang:
		if a.hang == nil {
			a.hang = make(chan struct{})
		}
	case FaultDie:
		d.after(ms(f.AfterMS), func() {
			if !a.dead {
				d.kill(a)
			}
		})
	default:
		a.faults = append(a.faults, &f)
	}
}

// clearFaults removes a's faults and lets calls blocked on a hang through.
func (a *app) clearFaults() {
	a.faults = nil
	if a.hang != nil {
		close(a.hang)
		a.hang = nil
	}
}

// take consumes one use of the first fault of kind that matches a call on element id with
// action (an attribute name for a set, "" for a read); nil when none matches.
func (a *app) take(kind FaultKind, id, action string) *Fault {
	for i, f := range a.faults {
		if f.Kind != kind || (f.Element != "" && f.Element != id) || (f.Action != "" && f.Action != action) {
			continue
		}
		if f.Count > 0 {
			f.Count--
			if f.Count == 0 {
				a.faults = append(a.faults[:i], a.faults[i+1:]...)
			}
		}
		return f
	}
	return nil
}

// slowness is the extra latency of a's calls.
func (a *app) slowness() time.Duration {
	var s time.Duration
	for _, f := range a.faults {
		if f.Kind == FaultSlow {
			s += ms(f.LatencyMS)
		}
	}
	return s
}

// call models one round trip to the apps pids: the desktop's latency plus the slowest app's
// extra, paid once however many elements the call reads (a pipelined backend), then the wait on
// an app that does not answer. err is set when the call ended while it waited; hung holds the
// error of each app that did not answer. An unknown or exited app is left for the caller.
func (d *Desktop) call(ctx context.Context, pids ...int) (hung map[int]error, err error) {
	d.mu.Lock()
	latency, extra := d.latency, time.Duration(0)
	hangs := map[int]chan struct{}{}
	for _, pid := range pids {
		if a := d.appByPID(pid); a != nil && !a.dead {
			extra = max(extra, a.slowness())
			if a.hang != nil {
				hangs[pid] = a.hang
			}
		}
	}
	d.mu.Unlock()
	if err := d.sleep(ctx, latency+extra); err != nil {
		return nil, err
	}
	if len(hangs) > 0 {
		d.mu.Lock()
		d.hung++
		d.mu.Unlock()
		defer func() {
			d.mu.Lock()
			d.hung--
			d.mu.Unlock()
		}()
	}
	hung = map[int]error{}
	for pid, resumed := range hangs {
		select {
		case <-resumed:
		case <-ctx.Done():
			d.mu.Lock()
			hung[pid] = errNotResponding(d.appByPID(pid))
			d.mu.Unlock()
		case <-d.done:
			return nil, errClosed()
		}
	}
	return hung, nil
}

// callApp is call for one app.
func (d *Desktop) callApp(ctx context.Context, pid int) error {
	hung, err := d.call(ctx, pid)
	if err != nil {
		return err
	}
	return hung[pid]
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }
