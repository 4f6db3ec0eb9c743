package sim

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
)

func inject(t *testing.T, d *Desktop, pid int, f Fault) {
	t.Helper()
	if err := d.InjectFault(pid, f); err != nil {
		t.Fatal(err)
	}
}

func TestTransientFaultFailsNextCalls(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	inject(t, d, notesPID, Fault{Kind: FaultTransient, Element: "save", Count: 2})
	ref := d.Ref(notesPID, "save")
	for i := range 2 {
		err := d.Perform(ctx, ref, "AXPress")
		e := model.AsError(err)
		if e == nil || e.Code != model.CodeTransient || e.Details["ax_error"] != -25204 || e.Suggestion == "" {
			t.Fatalf("call %d: %+v", i+1, e)
		}
	}
	if err := d.Perform(ctx, ref, "AXPress"); err != nil {
		t.Fatalf("third call: %v", err)
	}
	// Other elements are untouched.
	if n := d.Read(ctx, []model.NodeRef{d.Ref(notesPID, "title")})[0]; n.Err != nil {
		t.Fatal(n.Err)
	}
}

func TestTransientFaultOnAppHitsReadsOnePerElement(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	inject(t, d, notesPID, Fault{Kind: FaultTransient, Count: 2})
	nodes := d.Read(ctx, []model.NodeRef{d.Ref(notesPID, "save"), d.Ref(notesPID, "title"), d.Ref(notesPID, "volume"), d.Ref(mailPID, "inbox")})
	codes := []model.Code{model.CodeOf(nodes[0].Err), model.CodeOf(nodes[1].Err), model.CodeOf(nodes[2].Err), model.CodeOf(nodes[3].Err)}
	if codes[0] != model.CodeTransient || codes[1] != model.CodeTransient || codes[2] != "" || codes[3] != "" {
		t.Fatalf("codes = %v", codes)
	}
	if _, err := d.Windows(ctx, notesPID); err != nil {
		t.Fatalf("fault outlived its count: %v", err)
	}
}

func TestTransientFaultUntilCleared(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	inject(t, d, notesPID, Fault{Kind: FaultTransient})
	for range 3 {
		if _, err := d.Windows(ctx, notesPID); model.CodeOf(err) != model.CodeTransient {
			t.Fatalf("err = %v", err)
		}
	}
	if err := d.ClearFaults(notesPID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.FocusPath(ctx, notesPID); err != nil {
		t.Fatal(err)
	}
}

func TestLyingActionTakesEffectButFails(t *testing.T) {
	for _, code := range []model.Code{"", model.CodeActionFailed} {
		d, _ := fakeDemo(t)
		inject(t, d, notesPID, Fault{Kind: FaultLying, Element: "remember", Action: "AXPress", Code: code})
		err := d.Perform(context.Background(), d.Ref(notesPID, "remember"), "AXPress")
		want := code
		if want == "" {
			want = model.CodeTransient
		}
		if model.CodeOf(err) != want {
			t.Fatalf("code %q: err = %v", code, err)
		}
		if n := peek(t, d, notesPID, "remember"); n.Value != "1" {
			t.Fatalf("code %q: the lying press did not toggle (value %q)", code, n.Value)
		}
	}
}

func TestNoopActionSucceedsButDoesNothing(t *testing.T) {
	d, clock := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	inject(t, d, notesPID, Fault{Kind: FaultNoop, Count: 1})
	ctx := context.Background()
	if err := d.Perform(ctx, d.Ref(notesPID, "save"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if _, ok := d.Peek(notesPID, "saved"); ok {
		t.Fatal("the no-op press reacted")
	}
	if err := d.SetAttribute(ctx, d.Ref(notesPID, "title"), "AXValue", "x"); err != nil {
		t.Fatal(err)
	}
	if n := peek(t, d, notesPID, "title"); n.Value != "x" {
		t.Fatal("the no-op fault outlived its count")
	}
	rec.WaitFor(t, 0, 2*time.Second, "value change", raw("AXValueChanged", "Title"))
	for _, e := range rec.Events() {
		if e.Raw == "AXCreated" || e.Raw == "AXSheetCreated" {
			t.Fatalf("no-op press posted %s", e.Raw)
		}
	}
}

func TestSlowAppAddsLatency(t *testing.T) {
	d := loadFixture(t, "demo")
	inject(t, d, notesPID, Fault{Kind: FaultSlow, LatencyMS: 60})
	ctx := context.Background()
	start := time.Now()
	d.Read(ctx, []model.NodeRef{d.Ref(notesPID, "save")})
	if took := time.Since(start); took < 60*time.Millisecond {
		t.Fatalf("slow read took %v", took)
	}
	start = time.Now()
	d.Read(ctx, []model.NodeRef{d.Ref(mailPID, "inbox")})
	if took := time.Since(start); took >= 60*time.Millisecond {
		t.Fatalf("another app's read took %v: the slowness leaked", took)
	}
}

func TestHungAppBlocksUntilDeadline(t *testing.T) {
	d := loadFixture(t, "demo")
	inject(t, d, notesPID, Fault{Kind: FaultHang})
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 80*time.Millisecond)
	defer cancel()
	deadline, _ := ctx.Deadline()
	err := d.Perform(ctx, d.Ref(notesPID, "save"), "AXPress")
	if model.CodeOf(err) != model.CodeAppNotResponding || time.Now().Before(deadline) {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	nodes := d.Read(ctx, []model.NodeRef{d.Ref(notesPID, "save"), d.Ref(mailPID, "inbox")})
	if model.CodeOf(nodes[0].Err) != model.CodeAppNotResponding || nodes[1].Err != nil {
		t.Fatalf("read: %v, %v", nodes[0].Err, nodes[1].Err)
	}
	// Another app still answers.
	if _, err := d.Windows(context.Background(), mailPID); err != nil {
		t.Fatal(err)
	}
}

func TestHungAppResumes(t *testing.T) {
	d := loadFixture(t, "demo")
	inject(t, d, notesPID, Fault{Kind: FaultHang})
	done := make(chan error, 1)
	go func() { _, err := d.Windows(context.Background(), notesPID); done <- err }()
	waitHung(t, d, 1)
	if err := d.ClearFaults(notesPID); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("resumed call: %v", err)
	}
}

func TestHungCallEndsWhenAppDies(t *testing.T) {
	d := loadFixture(t, "demo")
	inject(t, d, notesPID, Fault{Kind: FaultHang})
	done := make(chan error, 1)
	go func() { done <- d.Perform(context.Background(), d.Ref(notesPID, "save"), "AXPress") }()
	waitHung(t, d, 1)
	if err := d.Kill(notesPID); err != nil {
		t.Fatal(err)
	}
	if err := <-done; model.CodeOf(err) != model.CodeAppGone {
		t.Fatalf("err = %v", err)
	}
}

func TestDieFaultEndsAppLater(t *testing.T) {
	d, clock := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	inject(t, d, mailPID, Fault{Kind: FaultDie, AfterMS: 500})
	clock.Advance(499 * time.Millisecond)
	if _, err := d.Windows(context.Background(), mailPID); err != nil {
		t.Fatalf("died early: %v", err)
	}
	clock.Advance(time.Millisecond)
	e := rec.WaitFor(t, 0, 2*time.Second, "app_terminated", func(e model.Event) bool { return e.Type == model.EventAppTerminated })
	if e.App.PID != mailPID || e.Element != nil {
		t.Fatalf("event = %+v", e)
	}
	if _, err := d.Windows(context.Background(), mailPID); model.CodeOf(err) != model.CodeAppGone {
		t.Fatalf("err = %v", err)
	}
}

func TestFixtureFaults(t *testing.T) {
	spec, err := Parse("faulty.json", []byte(behaviour(`"faults": [{"kind": "transient", "element": "b", "count": 1}, {"kind": "die", "after_ms": 50}]`)))
	if err != nil {
		t.Fatal(err)
	}
	clock := NewFakeClock(epoch)
	d, err := New(spec, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ref := d.Ref(1, "b")
	if err := d.Perform(context.Background(), ref, "AXPress"); model.CodeOf(err) != model.CodeTransient {
		t.Fatalf("err = %v", err)
	}
	if err := d.Perform(context.Background(), ref, "AXPress"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(50 * time.Millisecond)
	if err := d.Perform(context.Background(), ref, "AXPress"); model.CodeOf(err) != model.CodeAppGone {
		t.Fatalf("err = %v", err)
	}
}

func TestInjectFaultValidates(t *testing.T) {
	d, _ := fakeDemo(t)
	for _, f := range []Fault{{Kind: "flaky"}, {Kind: FaultTransient, Element: "nope"}, {Kind: FaultSlow}} {
		if err := d.InjectFault(notesPID, f); model.CodeOf(err) != model.CodeBadRequest {
			t.Errorf("%+v: %v", f, err)
		}
	}
	if err := d.InjectFault(999, Fault{Kind: FaultHang}); model.CodeOf(err) != model.CodeAppNotFound {
		t.Errorf("unknown pid: %v", err)
	}
}

func TestLatencyIsPaidOncePerBatch(t *testing.T) {
	d := loadFixture(t, "demo", WithLatency(40*time.Millisecond))
	ctx := context.Background()
	refs := make([]model.NodeRef, 100)
	for i := range refs {
		refs[i] = d.Ref(notesPID, "row-"+strconv.Itoa(i+1))
	}
	start := time.Now()
	for _, n := range d.Read(ctx, refs) {
		if n.Err != nil {
			t.Fatal(n.Err)
		}
	}
	batch := time.Since(start)
	start = time.Now()
	for range 3 {
		if err := d.Perform(ctx, d.Ref(notesPID, "remember"), "AXPress"); err != nil {
			t.Fatal(err)
		}
	}
	calls := time.Since(start)
	if batch < 40*time.Millisecond || batch > 400*time.Millisecond {
		t.Errorf("a 100-element read took %v, want one latency", batch)
	}
	if calls < 120*time.Millisecond {
		t.Errorf("three calls took %v, want three latencies", calls)
	}
	d.SetLatency(0)
	start = time.Now()
	d.Read(ctx, refs)
	if took := time.Since(start); took >= 40*time.Millisecond {
		t.Errorf("latency 0 read took %v", took)
	}
}

func TestLatencyHonoursContext(t *testing.T) {
	d := loadFixture(t, "demo", WithLatency(time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	nodes := d.Read(ctx, []model.NodeRef{d.Ref(notesPID, "save")})
	if model.CodeOf(nodes[0].Err) != model.CodeTimeout || !errors.Is(nodes[0].Err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", nodes[0].Err)
	}
}

// waitHung waits until n calls are blocked on a hung app.
func waitHung(t testing.TB, d *Desktop, n int) {
	t.Helper()
	testkit.Eventually(t, 2*time.Second, fmt.Sprintf("%d calls hung", n), func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.hung >= n
	})
}
