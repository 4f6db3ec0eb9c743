package main

import (
	"context"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// TestMCPEventsOfAPageSwitch: on GTK 3's widget factory (a real app nobody here wrote), a page
// switch is a storm of showing changes (~130). The events tool leaves them out by default and
// says how many; with exclude [] they come coalesced, a run a line with ×N; either way the text
// ends with the cursor. (The GTK3 fixture's stack switches with two showing changes.)
func TestMCPEventsOfAPageSwitch(t *testing.T) {
	var factory *headless.App
	dd := startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		var err error
		if factory, err = dd.session.StartProgram(ctx, "widget-factory", []string{"gtk3-widget-factory"}); err != nil {
			t.Fatal(err)
		}
		return []int{factory.PID}
	})
	s, _ := testdaemon.MCPClient(t, testdaemon.Axbus(t), "--state-dir", dd.Dir)
	const app = "gtk3-widget-factory"
	cursor := testdaemon.EventsEnd(t, s, app)

	// As an agent switches a page, and then focuses another element: its focus change comes
	// after every event of the switch, in the app's order.
	if r := testdaemon.CallTool(t, s, "click", map[string]any{"locator": `role=radio,name="Page 2"`, "app": app}); r.IsError {
		t.Fatalf("click Page 2: %s", testdaemon.Text(r))
	}
	if r := testdaemon.CallTool(t, s, "focus", map[string]any{"locator": `role=radio,name="Page 1"`, "app": app}); r.IsError {
		t.Fatalf("focus Page 1: %s", testdaemon.Text(r))
	}
	all := testdaemon.StoredAfter(t, dd.client, app, cursor, 1, func(e *api.Envelope) bool {
		return e.Type == model.EventFocusChanged && e.Element != nil && e.Element.Name == "Page 1"
	})
	kinds := map[string]int{}
	for i := range all {
		kinds[client.KindOf(&all[i]).String()+onOf(&all[i])]++
	}
	showing := kinds["state_changed:showing on"] + kinds["state_changed:showing off"]
	t.Logf("a page switch: %d events: %v", len(all), kinds)
	if showing < 50 {
		t.Fatalf("a page switch: %d showing changes, want a storm", showing)
	}

	text, page := testdaemon.EventsCall(t, s, map[string]any{"app": app, "cursor": cursor, "limit": 1000})
	if strings.Contains(text, "state=showing") || page.Excluded < showing || !strings.Contains(text, "left out by exclude [state_changed:showing") {
		t.Fatalf("by default, the showing changes left out: %d of %d left out:\n%s", page.Excluded, showing, text)
	}
	t.Logf("by default: %d bytes, %d lines for %d events, %d left out:\n%s", len(text), len(page.Events), page.EventCount(), page.Excluded, text)

	everyText, every := testdaemon.EventsCall(t, s, map[string]any{"app": app, "cursor": cursor, "limit": 1000, "exclude": []string{}})
	longest := 0
	for _, e := range every.Events {
		if client.KindOf(&e.Envelope).String() == "state_changed:showing" {
			longest = max(longest, e.Count)
		}
	}
	if every.Excluded != 0 || every.EventCount() < len(all) || longest < showing/2 || len(every.Events) > every.EventCount()/4 {
		t.Fatalf("exclude []: %d entries for %d events (%d stored), the longest run of showing changes %d:\n%s", len(every.Events), every.EventCount(), len(all), longest, everyText)
	}
	t.Logf("exclude []: %d bytes, %d lines for %d events:\n%s", len(everyText), len(every.Events), every.EventCount(), everyText)
}

// onOf is " on" or " off" for a state change, else "".
func onOf(e *api.Envelope) string {
	if e.Type != model.EventStateChanged {
		return ""
	}
	if on, _ := e.Detail["on"].(bool); on {
		return " on"
	}
	return " off"
}
