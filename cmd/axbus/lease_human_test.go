package main

import (
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

func TestLeaseHumanForm(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	notes := &model.AppRef{Name: "Notes", PID: 501, Generation: 1}
	app := api.Lease{Key: "app.notes.501", What: api.LeaseApp, Holder: "alice", Expires: at, TTLMS: 30000, App: notes}
	input := api.Lease{Key: "input", What: api.LeaseInput, Holder: "bob", Expires: at, TTLMS: 15000, App: notes, Action: "key"}
	var b strings.Builder
	if err := (&leaseReply{Lease: &app, WaitedMS: 12.5}).human(&b); err != nil {
		t.Fatal(err)
	}
	if err := (&leaseReply{Leases: []api.Lease{app, input}}).human(&b); err != nil {
		t.Fatal(err)
	}
	want := "app.notes.501: Notes (pid 501), held by alice until 03:04:05.000 (ttl 30s), after waiting 12.5ms\n" +
		"KEY            HOLDER  EXPIRES       COVERS\n" +
		"app.notes.501  alice   03:04:05.000  Notes (pid 501)\n" +
		"input          bob     03:04:05.000  physical input, for a key on Notes\n"
	if b.String() != want {
		t.Fatalf("human form\n%s\nwant\n%s", b.String(), want)
	}
}
