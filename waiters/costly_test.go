package waiters

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/waiters/condition"
)

// hostileText is 200 KiB of what [S-U] matches: every instruction of a counted [S-U] is live at
// every byte.
var hostileText = strings.Repeat("STU", 200<<10/3)

// strongestRegexes is the costliest condition the bound accepts that never holds: any of 32
// /[S-U]{27}a!/ (31 instructions each, 992 in all).
var strongestRegexes = strings.Join(slices.Repeat([]string{`text:/[S-U]{27}a!/`}, 32), " or ")

// hostile starts the attacker on Notes: a 200 KiB value in its title field, set again and
// again (an agent's set_value each time), and a wait on the strongest accepted condition. It
// returns once the wait is evaluated by the costly pool; stop ends the setter.
func hostile(t *testing.T, r *rig, timeout time.Duration) (result <-chan *Result, stop func()) {
	t.Helper()
	if err := r.desk.SetValue(notes, "title", hostileText); err != nil {
		t.Fatal(err)
	}
	cond, err := condition.ParseCompact(strongestRegexes)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan *Result, 1)
	go func() {
		res, err := r.e.Wait(context.Background(), Request{Condition: cond, App: model.AppQuery{PID: notes}, Timeout: timeout}, nil)
		if err != nil {
			res = &Result{Outcome: Failed, Error: model.AsError(err)}
		}
		out <- res
	}()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			_ = r.desk.SetValue(notes, "title", hostileText[:len(hostileText)-i%7])
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	testkit.Eventually(t, 10*time.Second, "the costly pool evaluating the attacker's wait", func() bool { return r.e.costly.runs.Load() >= 1 })
	return out, sync.OnceFunc(func() { cancel(); wg.Wait() })
}

// TestACostlyWaitDelaysNoOther: while the attacker's wait is evaluated again at every change of
// its 200 KiB text (~0.1 s each), waits on the same app and on another are met within
// milliseconds of the change that meets them: the costly wait is evaluated off the watcher.
// Evaluated on the watcher (before), each of their rounds waited for the attacker's.
func TestACostlyWaitDelaysNoOther(t *testing.T) {
	r := newRig(t)
	attacker, stop := hostile(t, r, time.Minute)
	defer stop()
	var took []time.Duration
	for i := range 20 {
		pid, id, name := notes, "save", fmt.Sprintf("Save %d", i)
		if i%2 == 1 {
			pid, id, name = mail, "compose", fmt.Sprintf("Compose %d", i)
		}
		expr := fmt.Sprintf(`element:role=button,name=%q`, name)
		duringTheAttackersEvaluation(t, r)
		var at time.Time
		res := r.wait(t, expr, model.AppQuery{PID: pid}, 10*time.Second, func() {
			at = time.Now()
			if err := r.desk.SetTitle(pid, id, name); err != nil {
				t.Error(err)
			}
		})
		if res.Outcome != Met {
			t.Fatalf("%s: %s %+v", expr, res.Outcome, res.Error)
		}
		took = append(took, time.Since(at))
	}
	slices.Sort(took)
	p50, worst := took[len(took)/2], took[len(took)-1]
	t.Logf("met after its change, 20 waits on Notes and Mail, each begun while the pool evaluated the attacker's: p50 %v, max %v; the pool evaluated the attacker's %d times",
		p50, worst, r.e.costly.runs.Load())
	if p50 > raceScale*20*time.Millisecond || worst > raceScale*250*time.Millisecond {
		t.Errorf("p50 %v (want ≤ 20 ms), max %v (want ≤ 250 ms)", p50, worst)
	}
	select {
	case res := <-attacker:
		t.Fatalf("the attacker's wait ended: %s %+v", res.Outcome, res.Error)
	default:
	}
}

// duringTheAttackersEvaluation returns once the costly pool evaluates a wait.
func duringTheAttackersEvaluation(t *testing.T, r *rig) {
	t.Helper()
	testkit.Eventually(t, 5*time.Second, "the pool evaluating a wait", r.e.costly.running)
}

// TestACostlyWaitsWorkEndsWithIt: the attacker's wait times out on time, and its evaluation
// stops then, within one comparison, though its text keeps changing.
func TestACostlyWaitsWorkEndsWithIt(t *testing.T) {
	r := newRig(t)
	const timeout = 1500 * time.Millisecond
	start := time.Now()
	attacker, stop := hostile(t, r, timeout)
	defer stop()
	res := <-attacker
	took := time.Since(start)
	if res.Outcome != Timeout || took > timeout+raceScale*300*time.Millisecond {
		t.Fatalf("%s after %v (timeout %v)", res.Outcome, took, timeout)
	}
	testkit.Eventually(t, raceScale*time.Second, "the ended wait's evaluation gone", func() bool { return !r.e.costly.busy() })
	t.Logf("timed out after %v (timeout %v), its evaluation gone %v later", took, timeout, time.Since(start)-took)
}

// TestACostlyWaitEndsPastItsBudget: a wait whose one evaluation would take more than EvalBudget
// steps (a 990-repetition regex over five 200 KiB values) ends with CONDITION_TOO_COSTLY.
func TestACostlyWaitEndsPastItsBudget(t *testing.T) {
	r := newRig(t)
	for _, id := range []string{"title", "volume", "remember", "rows-scrollbar", "page-scrollbar"} {
		if err := r.desk.SetValue(notes, id, hostileText); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	res := r.wait(t, `element:value=/[S-U]{990}a!/`, model.AppQuery{PID: notes}, 30*time.Second, nil)
	if res.Outcome != Failed || res.Error == nil || res.Error.Code != model.CodeConditionTooCostly || res.Error.Suggestion == "" {
		t.Fatalf("%s %+v", res.Outcome, res.Error)
	}
	t.Logf("ended after %v: %s", time.Since(start), res.Error.Message)
}

// TestACostlyLocatorEndsPastItsBudget: an action's locator is searched on its app's watcher, so
// its search has the smaller LocatorBudget: a long regex over a 200 KiB value ends it at once.
func TestACostlyLocatorEndsPastItsBudget(t *testing.T) {
	r := newRig(t)
	if err := r.desk.SetValue(notes, "title", hostileText); err != nil {
		t.Fatal(err)
	}
	l, err := condition.ParseLocator(`role=text_field,value=/[S-U]{990}a!/`)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := r.e.Wait(context.Background(), Request{Locator: l, Checks: Checks{Unique: true}, App: model.AppQuery{PID: notes}, Timeout: 10 * time.Second}, nil)
	if err != nil || res.Outcome != Failed || res.Error.Code != model.CodeConditionTooCostly {
		t.Fatalf("%v %+v", err, res)
	}
	if took := time.Since(start); took > raceScale*time.Second {
		t.Errorf("ended after %v", took)
	}
	t.Logf("ended after %v: %s", time.Since(start), res.Error.Message)
}

// TestManyCostlyWaitsDelayNoOther: 200 waits on the strongest accepted regex, over a 6 KiB text
// changed every 10 ms, keep the costly pool busy; a cheap wait on the same app, measured while
// the pool works, is met within milliseconds of its change: the cheapest waits go first, each
// change's inline work is bounded (RoundBudget), the rest is the pool's. Evaluated on the watcher
// (before): p50 159 ms.
func TestManyCostlyWaitsDelayNoOther(t *testing.T) {
	r := newRig(t)
	text := strings.Repeat("STU", 6000/3)
	if err := r.desk.SetValue(notes, "title", text); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 200 {
		cond, err := condition.ParseCompact(`text:/[S-U]{27}a!/`) // one each: Validate prepares it
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = r.e.Wait(ctx, Request{Condition: cond, App: model.AppQuery{PID: notes}, Timeout: time.Minute}, nil)
		}()
	}
	defer func() { cancel(); wg.Wait() }()
	testkit.Eventually(t, raceScale*10*time.Second, "200 waits listening", func() bool { return r.e.waitsOn(notes) >= 200 })
	stopSetting := make(chan struct{})
	var setter sync.WaitGroup
	setter.Add(1)
	go func() {
		defer setter.Done()
		for i := 0; ; i++ {
			select {
			case <-stopSetting:
				return
			case <-time.After(10 * time.Millisecond):
			}
			_ = r.desk.SetValue(notes, "title", text[:len(text)-i%7])
		}
	}()
	defer func() { close(stopSetting); setter.Wait() }()
	var took []time.Duration
	for i := range 20 {
		name := fmt.Sprintf("Save %d", i)
		duringTheAttackersEvaluation(t, r)
		var at time.Time
		res := r.wait(t, fmt.Sprintf(`element:role=button,name=%q`, name), model.AppQuery{PID: notes}, 10*time.Second, func() {
			at = time.Now()
			if err := r.desk.SetTitle(notes, "save", name); err != nil {
				t.Error(err)
			}
		})
		if res.Outcome != Met {
			t.Fatalf("%s: %s", name, res.Outcome)
		}
		took = append(took, time.Since(at))
	}
	slices.Sort(took)
	p50, worst := took[len(took)/2], took[len(took)-1]
	t.Logf("beside 200 costly waits: p50 %v, max %v; the pool evaluated %d", p50, worst, r.e.costly.runs.Load())
	if p50 > raceScale*20*time.Millisecond || worst > raceScale*250*time.Millisecond {
		t.Errorf("p50 %v (want ≤ 20 ms), max %v (want ≤ 250 ms)", p50, worst)
	}
}

// waitsOn is how many waits the watcher of pid has.
func (e *Engine) waitsOn(pid int) int {
	e.mu.Lock()
	aw := e.apps[pid]
	e.mu.Unlock()
	if aw == nil {
		return 0
	}
	aw.mu.Lock()
	defer aw.mu.Unlock()
	return len(aw.waits)
}

// TestFrozenViewsShareOnlyWhatTheySee: within one change, a costly wait on windows alone (no
// element copies) and a costly text wait on the same window each get their own element list.
func TestFrozenViewsShareOnlyWhatTheySee(t *testing.T) {
	n := &model.Node{Ref: "n1", Role: model.RoleText, Text: "Saved"}
	lists := map[frozenKey][]*model.Node{}
	windowsOnly := (&view{}).freeze(lists, "")
	withElements := (&view{frozen: []*model.Node{n}, lives: []*live.Window{nil}}).freeze(lists, "")
	if len(windowsOnly.frozen) != 0 || len(withElements.frozen) != 1 {
		t.Fatalf("windows only: %d elements; with elements: %d", len(windowsOnly.frozen), len(withElements.frozen))
	}
}

// The costly pool serves identities in turn: one identity's many costly waits hold another's
// back by one job, not by all of theirs, and each identity's own go in their order.
func TestCostlyWaitsTakeTurnsByIdentity(t *testing.T) {
	p := newCostlyPool()
	var keys []slotKey
	add := func(who string) {
		k := slotKey{w: &wait{who: who}}
		s := &costlySlot{next: &costlyJob{}}
		p.slots[k] = s
		p.enqueue(k, s)
		keys = append(keys, k)
	}
	for range 5 {
		add("mallory")
	}
	add("owner")
	add("mallory")
	var got []string
	for k, j := p.take(); j != nil; k, j = p.take() {
		got = append(got, k.w.who)
	}
	if want := []string{"mallory", "owner", "mallory", "mallory", "mallory", "mallory", "mallory"}; !slices.Equal(got, want) {
		t.Fatalf("served %v, want %v", got, want)
	}
	// finished with a job come meanwhile: the slot queues again behind the other identities'.
	k := keys[0]
	p.slots[k].next = &costlyJob{}
	add("owner")
	p.finished(k)
	if k2, _ := p.take(); k2.w.who != "owner" {
		t.Fatalf("after mallory's job, %s's was taken, want the owner's", k2.w.who)
	}
}
