package sim

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

func TestKillEndsApp(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	ctx := context.Background()
	ref := d.Ref(mailPID, "compose")
	if err := d.Kill(mailPID); err != nil {
		t.Fatal(err)
	}
	e := rec.WaitFor(t, 0, 2*time.Second, "app_terminated", func(e model.Event) bool { return e.Type == model.EventAppTerminated })
	if e.App.PID != mailPID || e.App.Name != "Mail" || e.Raw != "NSWorkspaceDidTerminateApplicationNotification" {
		t.Fatalf("event = %+v", e)
	}
	apps, _ := d.Apps(ctx)
	if len(apps) != 1 || apps[0].PID != notesPID {
		t.Fatalf("apps = %+v", apps)
	}
	if _, err := d.Windows(ctx, mailPID); model.CodeOf(err) != model.CodeAppGone {
		t.Fatalf("windows: %v", err)
	}
	if err := d.Perform(ctx, ref, "AXPress"); model.CodeOf(err) != model.CodeAppGone {
		t.Fatalf("perform: %v", err)
	}
	if n := d.Read(ctx, []model.NodeRef{ref})[0]; model.CodeOf(n.Err) != model.CodeAppGone {
		t.Fatalf("read: %v", n.Err)
	}
	if _, ok := d.Peek(mailPID, "compose"); ok {
		t.Fatal("the dead app's element is still there")
	}
	if err := d.Kill(mailPID); model.CodeOf(err) != model.CodeAppGone {
		t.Fatalf("second kill: %v", err)
	}
}

func TestRelaunchMakesNewGeneration(t *testing.T) {
	d, _ := fakeDemo(t)
	o := observer.New(d)
	ctx := context.Background()
	before, err := o.FindApp(ctx, model.AppQuery{PID: notesPID})
	if err != nil {
		t.Fatal(err)
	}
	oldRef := d.Ref(notesPID, "save")
	if err := d.SetValue(notesPID, "title", "changed"); err != nil {
		t.Fatal(err)
	}
	rec := testkit.Record(t, d.Watch)
	if err := d.Relaunch(notesPID); err != nil {
		t.Fatal(err)
	}
	rec.WaitFor(t, 0, 2*time.Second, "terminated", func(e model.Event) bool { return e.Type == model.EventAppTerminated })
	rec.WaitFor(t, 0, 2*time.Second, "launched", func(e model.Event) bool {
		return e.Type == model.EventAppLaunched && e.App.PID == notesPID
	})
	after, err := o.FindApp(ctx, model.AppQuery{PID: notesPID})
	if err != nil {
		t.Fatal(err)
	}
	if after.Instance == before.Instance || after.Generation <= before.Generation {
		t.Fatalf("before %+v, after %+v", before, after)
	}
	if err := d.Perform(ctx, oldRef, "AXPress"); model.CodeOf(err) != model.CodeAppGone {
		t.Fatalf("old handle: %v", err)
	}
	if newRef := d.Ref(notesPID, "save"); newRef == oldRef || d.Perform(ctx, newRef, "AXPress") != nil {
		t.Fatalf("new handle %q", newRef)
	}
	if n := peek(t, d, notesPID, "title"); n.Value != "Shopping list" {
		t.Fatalf("relaunched title %q: the tree was not reset", n.Value)
	}
}

func TestLaunchAtNewPID(t *testing.T) {
	d, _ := fakeDemo(t)
	spec, ok := d.AppSpec("Mail")
	if !ok {
		t.Fatal("no Mail spec")
	}
	spec.PID = 0
	spec.Windows[0].Title = "Second inbox" // the copy is the caller's own
	pid, err := d.Launch(spec)
	if err != nil {
		t.Fatal(err)
	}
	if pid != 503 {
		t.Fatalf("pid = %d", pid)
	}
	wins, _ := d.Windows(context.Background(), pid)
	if len(wins) != 1 || wins[0].Title != "Second inbox" {
		t.Fatalf("windows = %+v", wins)
	}
	if orig, _ := d.Windows(context.Background(), mailPID); orig[0].Title != "Inbox" {
		t.Fatal("changing the copy changed the original")
	}
	spec.PID = pid
	if _, err := d.Launch(spec); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("launch at a running pid: %v", err)
	}
	bad := AppSpec{Name: "Bad", Windows: []NodeSpec{{ID: "w", Role: "AXSheet"}}}
	if _, err := d.Launch(bad); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("launch of a bad spec: %v", err)
	}
}
