package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
)

// TestMCPEventsRefusesWhatSelectsNothing: an unknown type (to choose or to exclude), detail, app,
// or a cursor past the stream's end is an error with its code and what is known, through MCP,
// the Go client and the CLI's tail, not a page of no events.
func TestMCPEventsRefusesWhatSelectsNothing(t *testing.T) {
	d := startTestDaemon(t)
	s, _ := testdaemon.MCPClient(t, testdaemon.Axbus(t), "--state-dir", d.Dir)
	end := testdaemon.EventsEnd(t, s, "")
	for _, c := range []struct {
		args       map[string]any
		code       model.Code
		mentioning string
	}{
		{map[string]any{"type": "bounds_changed"}, model.CodeBadRequest, "layout_changed"},
		{map[string]any{"exclude": []string{"bounds_changed"}}, model.CodeBadRequest, "focus_changed"},
		{map[string]any{"exclude": []string{"state_changed:shown"}}, model.CodeBadRequest, "showing"},
		{map[string]any{"exclude": []string{"focus_changed:on"}}, model.CodeBadRequest, "state_changed"},
		{map[string]any{"app": "Nosuch"}, model.CodeAppNotFound, "Notes"},
		{map[string]any{"app": "Notes", "cursor": end + 1000}, model.CodeBadRequest, "cursor"},
	} {
		r := testdaemon.CallTool(t, s, "events", c.args)
		e := testdaemon.ErrorOf(t, r)
		if e.Code != c.code || !strings.Contains(testdaemon.Text(r), c.mentioning) || !strings.Contains(testdaemon.Text(r), "suggestion: ") {
			t.Fatalf("events %v: %s", c.args, testdaemon.Text(r))
		}
		if c.code == model.CodeBadRequest && c.args["cursor"] != nil {
			if last, _ := e.Details["last"].(float64); uint64(last) < end || uint64(last) >= end+1000 {
				t.Fatalf("a cursor past the end: details %v, the end was %d", e.Details, end)
			}
		}
		t.Logf("%v: %s", c.args, strings.ReplaceAll(strings.SplitN(testdaemon.Text(r), "\n{", 2)[0], "\n", " | "))
	}

	// The same through the Go client, which the CLI and NATS tools share.
	cl := testdaemon.Client(t, d.Connect(t))
	ctx := context.Background()
	for _, c := range []struct {
		call func() error
		code model.Code
	}{
		{func() error {
			_, err := cl.EventsAfter(ctx, 0, 10, 0, client.TailOptions{Type: "bogus"})
			return err
		}, model.CodeBadRequest},
		{func() error {
			_, err := cl.EventsAfter(ctx, 0, 10, 0, client.TailOptions{App: "nosuch"})
			return err
		}, model.CodeAppNotFound},
		{func() error { _, err := cl.EventsAfter(ctx, end+1000, 10, 0, client.TailOptions{}); return err }, model.CodeBadRequest},
		{func() error { _, err := cl.Tail(ctx, client.TailOptions{Type: "bogus"}); return err }, model.CodeBadRequest},
		{func() error { _, err := cl.Tail(ctx, client.TailOptions{App: "nosuch"}); return err }, model.CodeAppNotFound},
		{func() error { _, err := client.ParseEventKinds([]string{"state_changed:nope"}); return err }, model.CodeBadRequest},
	} {
		if err := c.call(); model.CodeOf(err) != c.code {
			t.Fatalf("want %s, got %v", c.code, err)
		}
	}
	// An app that runs, and one that has events kept but no longer runs, are known.
	if _, err := cl.EventsAfter(ctx, 0, 10, 0, client.TailOptions{App: "mail"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Backend.(*sim.Desktop).Kill(502); err != nil {
		t.Fatal(err)
	}
	testdaemon.StoredAfter(t, cl, "mail", end, 1, func(e *api.Envelope) bool { return e.Type == model.EventAppTerminated })
	if _, err := cl.EventsAfter(ctx, 0, 10, 0, client.TailOptions{App: "mail"}); err != nil {
		t.Fatalf("events of an app that ended: %v", err)
	}

	for _, c := range []struct {
		args []string
		exit int
	}{
		{[]string{"tail", "notes.bounds_changed"}, exitUsage},
		{[]string{"tail", "nosuch"}, exitNotFound},
		{[]string{"tail", "--exclude", "state_changed:shown"}, exitUsage},
		{[]string{"tail", "--actions", "--exclude", "focus_changed"}, exitUsage},
	} {
		if out, errOut, code := d.cli(t, c.args...); code != c.exit {
			t.Fatalf("%v: exit %d, want %d: %s%s", c.args, code, c.exit, out, errOut)
		}
	}
}

// TestMCPEventsStormsExclusionsAndCursor: on the simulated desktop, a run of one element's value
// changes is one line with ×N (one entry with its count); exclude leaves a kind out and the
// cursor goes past it; a page whose text would pass 32 KiB ends where it fits, with the cursor,
// and paging from it loses and repeats nothing; the CLI's tail leaves out what --exclude says;
// the events resource gives the newest events within 32 KiB.
func TestMCPEventsStormsExclusionsAndCursor(t *testing.T) {
	d := startTestDaemon(t)
	desk := d.Backend.(*sim.Desktop)
	s, _ := testdaemon.MCPClient(t, testdaemon.Axbus(t), "--state-dir", d.Dir)
	cl := testdaemon.Client(t, d.Connect(t))
	const mail = 502
	isStatus := func(e *api.Envelope) bool {
		return e.Type == model.EventValueChanged || e.Type == model.EventTitleChanged
	}

	// A storm: 40 value changes of one element.
	cursor := testdaemon.EventsEnd(t, s, "Mail")
	const storm = 40
	for i := range storm {
		if err := desk.SetValue(mail, "mail-status", fmt.Sprintf("status %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	testdaemon.StoredAfter(t, cl, "mail", cursor, storm, isStatus)
	text, page := testdaemon.EventsCall(t, s, map[string]any{"app": "Mail", "cursor": cursor})
	lines := strings.Split(text, "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "×40") || !strings.Contains(lines[0], "status 39") ||
		len(page.Events) != 1 || page.Events[0].Count != storm || page.Events[0].Element == nil || page.Events[0].Element.Name != "status 39" {
		t.Fatalf("a storm of %d value changes: %s\n%+v", storm, text, page)
	}
	t.Logf("a storm of %d: %s", storm, text)
	stormEnd := page.Cursor

	// Left out, and passed over: the cursor is after them.
	text, page = testdaemon.EventsCall(t, s, map[string]any{"app": "Mail", "cursor": cursor, "exclude": []string{"value_changed"}})
	if len(page.Events) != 0 || page.Excluded != storm || page.Cursor != stormEnd || !strings.Contains(text, "40 left out by exclude [value_changed]") {
		t.Fatalf("the storm excluded: %s\n%+v", text, page)
	}
	// The CLI's tail leaves them out too (its history replayed to an event after them).
	if err := desk.SetTitle(mail, "compose", "Compose now"); err != nil {
		t.Fatal(err)
	}
	out := tailWhile(t, func(out []byte) bool { return !strings.Contains(string(out), "Compose now") },
		"tail", "mail", "--all", "--json", "--exclude", "value_changed,layout_changed", "--state-dir", d.Dir)
	if strings.Contains(out, `"type":"value_changed"`) || !strings.Contains(out, `"type":"title_changed"`) {
		t.Fatalf("tail --exclude value_changed:\n%s", out)
	}

	// A page too long for 32 KiB of text: 1,200 events, no two in a row alike.
	cursor = testdaemon.EventsEnd(t, s, "Mail")
	const many = 1200
	for i := range many / 2 {
		if err := desk.SetValue(mail, "mail-status", fmt.Sprintf("status %d", i)); err != nil {
			t.Fatal(err)
		}
		if err := desk.SetTitle(mail, "mail-status", fmt.Sprintf("title %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	testdaemon.StoredAfter(t, cl, "mail", cursor, many, isStatus)
	text, page = testdaemon.EventsCall(t, s, map[string]any{"app": "Mail", "cursor": cursor, "limit": 1000})
	if !page.More || len(page.Events) != strings.Count(text, "\n") || page.EventCount() >= 1000 {
		t.Fatalf("a page cut to fit: %d bytes, %d entries, more %v; ends %q", len(text), len(page.Events), page.More, text[len(text)-200:])
	}
	t.Logf("a page of 1,000 asked for: %d events in %d bytes of text; ends %q", page.EventCount(), len(text), text[strings.LastIndexByte(text, '\n')+1:])
	got, pages := page.EventCount(), 1
	for page.More {
		_, page = testdaemon.EventsCall(t, s, map[string]any{"app": "Mail", "cursor": page.Cursor, "limit": 1000})
		got += page.EventCount()
		pages++
	}
	if got != many {
		t.Fatalf("paged from the cursor: %d events in %d pages, want %d", got, pages, many)
	}

	// The resource: the newest events, within 32 KiB, and the cursor to go on from.
	res, err := s.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "axbus://events/mail"})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("read the events resource: %v", err)
	}
	body := res.Contents[0].Text
	var recent testdaemon.EventsResult
	if err := json.Unmarshal([]byte(body), &recent); err != nil {
		t.Fatal(err)
	}
	newest := recent.Events[len(recent.Events)-1]
	if len(body) > 32<<10 || len(recent.Events) > 100 || recent.Earlier < many-100 || recent.Cursor != page.Cursor ||
		newest.Element == nil || newest.Element.Name != fmt.Sprintf("title %d", many/2-1) {
		t.Fatalf("the events resource: %d bytes, %d entries, %d earlier, cursor %d (the events tool's %d)", len(body), len(recent.Events), recent.Earlier, recent.Cursor, page.Cursor)
	}
	t.Logf("the events resource after %d events: %d bytes, %d entries, %d earlier left out", many, len(body), len(recent.Events), recent.Earlier)
}
