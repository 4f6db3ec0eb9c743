package waiters

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/waiters/condition"
)

const mail = 502

// mailGone is the demo desktop with Mail ended, and Mail's spec to launch it again.
func mailGone(t *testing.T) (*rig, sim.AppSpec) {
	t.Helper()
	r := newRig(t)
	spec, ok := r.desk.AppSpec("Mail")
	if !ok {
		t.Fatal("the demo desktop has no Mail")
	}
	if err := r.desk.Kill(mail); err != nil {
		t.Fatal(err)
	}
	return r, spec
}

// launchAt starts spec at pid, as a user would.
func (r *rig) launchAt(t *testing.T, spec sim.AppSpec, pid int) {
	t.Helper()
	spec.PID = pid
	if _, err := r.desk.Launch(spec); err != nil {
		t.Error(err)
	}
}

// TestWaitOnAnAppThatStartsLater: a wait naming an app by name that does not run yet is armed at
// once, and met once the app starts: started from the armed callback itself, so a launch right
// after the armed reply is not missed.
func TestWaitOnAnAppThatStartsLater(t *testing.T) {
	r, spec := mailGone(t)
	var armedAfter time.Duration
	start := time.Now()
	res := r.wait(t, `window:title~"Inbox"`, model.AppQuery{Name: "Mail"}, 5*time.Second, func() {
		armedAfter = time.Since(start)
		r.launchAt(t, spec, 777)
	})
	if res.Outcome != Met || res.App == nil || res.App.PID != 777 || res.Window == nil || res.Window.Title != "Inbox" {
		t.Fatalf("result %+v (error %v)", res, res.Error)
	}
	if armedAfter > time.Second {
		t.Fatalf("armed %v after the request: it listens from the start", armedAfter)
	}
	// A locator (an action's wait for its target) is the same wait.
	if err := r.desk.Kill(777); err != nil {
		t.Fatal(err)
	}
	l, err := condition.ParseLocator("role=button,name=Compose")
	if err != nil {
		t.Fatal(err)
	}
	res, err = r.e.Wait(context.Background(), Request{Locator: l, Checks: Checks{Unique: true, Visible: true, Enabled: true, Stable: true},
		App: model.AppQuery{Name: "mail"}, Timeout: 5 * time.Second}, func() { r.launchAt(t, spec, 778) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Met || res.App == nil || res.App.PID != 778 || res.Match == nil || res.Match.Name != "Compose" {
		t.Fatalf("locator: %+v (error %v)", res, res.Error)
	}
}

// TestWaitOnAnAppThatNeverStarts: the wait ends at its timeout, not before, with APP_NOT_FOUND
// saying that no such app appeared; a locator's says so too, not not_found.
func TestWaitOnAnAppThatNeverStarts(t *testing.T) {
	r := newRig(t)
	armed := false
	start := time.Now()
	res := r.wait(t, `text:"x"`, model.AppQuery{Name: "Calculator"}, 300*time.Millisecond, func() { armed = true })
	late := time.Since(start) - 300*time.Millisecond
	if res.Outcome != Timeout || !armed || late < 0 || late > 100*time.Millisecond {
		t.Fatalf("%+v, armed %v, %v past the deadline", res, armed, late)
	}
	if e := res.Error; e == nil || e.Code != model.CodeAppNotFound || e.Suggestion == "" || e.Details["app"] != "Calculator" ||
		e.Message != `no app matching "Calculator" appeared within 300ms` {
		t.Fatalf("error %+v", res.Error)
	}
	l, _ := condition.ParseLocator("role=button,name=Equals")
	res, err := r.e.Wait(context.Background(), Request{Locator: l, Checks: Checks{Unique: true}, App: model.AppQuery{Name: "Calculator"},
		Timeout: 200 * time.Millisecond}, nil)
	if err != nil || res.Outcome != Timeout || res.Error == nil || res.Error.Code != model.CodeAppNotFound || res.Error.Details["check"] != nil {
		t.Fatalf("locator: %+v, %v", res, err)
	}
	// An app started meanwhile that is not it does not end the wait.
	spec, _ := r.desk.AppSpec("Mail")
	res = r.wait(t, `text:"x"`, model.AppQuery{Name: "Calculator"}, 300*time.Millisecond, func() { r.launchAt(t, spec, 779) })
	if res.Outcome != Timeout || model.CodeOf(res.Error) != model.CodeAppNotFound {
		t.Fatalf("another app started: %+v", res)
	}
	if n := r.e.Awaiting(); n != 0 {
		t.Fatalf("%d waits still listen for launches after they ended", n)
	}
}

// TestWaitOnAppsThatCannotAppear: a pid names one process, and an element of a snapshot one
// instance: neither waits for an app to start. Two running apps of the name are ambiguous at once.
func TestWaitOnAppsThatCannotAppear(t *testing.T) {
	r, spec := mailGone(t)
	cond, _ := condition.ParseCompact(`text:"x"`)
	start := time.Now()
	for _, q := range []model.AppQuery{{PID: 4242}, {PID: notes, Name: "Mail"}} {
		if _, err := r.e.Wait(context.Background(), Request{Condition: cond, App: q, Timeout: 2 * time.Second}, nil); model.CodeOf(err) != model.CodeAppNotFound {
			t.Errorf("%v: %v", q, err)
		}
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("refused after %v: not at once", took)
	}
	r.launchAt(t, spec, 777)
	r.launchAt(t, spec, 778)
	_, err := r.e.Wait(context.Background(), Request{Condition: cond, App: model.AppQuery{Name: "Mail"}, Timeout: 2 * time.Second}, nil)
	if model.CodeOf(err) != model.CodeAppAmbiguous {
		t.Fatalf("two Mails running: %v", err)
	}
}

// TestWaitOnAnAppThatStartsTwice: two instances of the name appearing together are ambiguous, as
// FindApp says of two running ones: the wait ends with APP_AMBIGUOUS and their pids.
func TestWaitOnAnAppThatStartsTwice(t *testing.T) {
	r, spec := mailGone(t)
	res := r.wait(t, `window:title~"Inbox"`, model.AppQuery{Name: "Mail"}, 5*time.Second, func() {
		r.launchAt(t, spec, 777)
		r.launchAt(t, spec, 778)
	})
	if res.Outcome != Failed || model.CodeOf(res.Error) != model.CodeAppAmbiguous || res.Error.Suggestion == "" {
		t.Fatalf("result %+v (error %v)", res, res.Error)
	}
}
