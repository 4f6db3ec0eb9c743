package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/nats-io/nats.go"
)

// TestActionsKeepTheClientsOrder: a client sends a set_value and five types into one field without
// waiting for any reply, on two endpoints; the daemon handles each request on a goroutine of its
// own, so without turns they reached the app in any order. The field ends holding them in the
// order sent, as the app itself says.
func TestActionsKeepTheClientsOrder(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3)
	pid := dd.apps[headless.KindGTK3].PID
	nc := dd.Connect(t)
	replies := make(chan *nats.Msg, 16)
	inbox := nats.NewInbox()
	sub, err := nc.ChanSubscribe(inbox+".>", replies)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	send := func(i int, action string, req api.ActionRequest) {
		data, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if err := nc.PublishRequest(dd.Subjects.Endpoint(action), fmt.Sprintf("%s.%d", inbox, i), data); err != nil {
			t.Fatal(err)
		}
	}
	name := api.AppTarget{PID: pid}
	send(0, "set_value", api.ActionRequest{Locator: "role=text_field,name=Name", AppTarget: name, Value: "x"})
	for i := 1; i <= 5; i++ {
		send(i, "type", api.ActionRequest{Locator: "role=text_field,name=Name", AppTarget: name, Text: fmt.Sprint(i)})
	}
	var got []string // the replies with their traces, said when the field is wrong
	for range 6 {
		select {
		case m := <-replies:
			var r api.ActionReply
			if json.Unmarshal(m.Data, &r) != nil || !r.Done {
				t.Fatalf("%s: %s", m.Subject, m.Data)
			}
			got = append(got, fmt.Sprintf("%s: %s", m.Subject, m.Data))
		case <-time.After(30 * time.Second):
			t.Fatal("not every action was answered")
		}
	}
	if field := dd.state(t, headless.KindGTK3).Name; field != "x12345" {
		t.Fatalf("the field holds %q, want x12345: the actions in the order sent; the replies:\n%s", field, strings.Join(got, "\n"))
	}
}
