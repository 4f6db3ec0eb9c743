package waiters

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/sim"
)

// bigWindow is a desktop whose one window has a table of rows rows, one text each ("Row N", and
// past 10,000 "More N"): past the whole budget's 10,000 children when rows is more.
func bigWindow(t *testing.T, rows int, latencyMS int) *rig {
	t.Helper()
	var chunks []string // the simulator repeats at most 10,000 times: one repeat per 10,000 rows
	for first := 0; first < rows; first += 10000 {
		p, text := "c"+itoa(first/10000)+"r", "Row"
		if first > 0 {
			text = "More" // the count restarts in each repeat
		}
		chunks = append(chunks, `{"repeat": {"count": `+itoa(min(10000, rows-first))+`, "dy": 20}, "id": "`+p+`%d", "role": "AXRow", "frame": [0, 0, 800, 20], "children": [
	        {"id": "`+p+`%d-t", "role": "AXStaticText", "value": "`+text+` %d", "frame": [0, 0, 100, 20]}]}`)
	}
	spec := `{"latency_ms": ` + itoa(latencyMS) + `, "apps": [{"name": "Big", "pid": 701, "bundle_id": "com.example.big", "windows": [
	  {"id": "w", "role": "AXWindow", "title": "Big", "frame": [0, 0, 800, 600], "children": [
	    {"id": "t", "role": "AXTable", "frame": [0, 0, 800, 600], "children": [` + strings.Join(chunks, ",") + `]}]}]}]}`
	var ds sim.DesktopSpec
	if err := json.Unmarshal([]byte(spec), &ds); err != nil {
		t.Fatal(err)
	}
	desk, err := sim.New(&ds)
	if err != nil {
		t.Fatal(err)
	}
	return rigOn(t, desk)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// A wait sees a window past the inspection budgets whole: row 9,000 of 9,000.
func TestWaitSeesTheWholeWindow(t *testing.T) {
	r := bigWindow(t, 9000, 0)
	res := r.wait(t, `text="Row 9000"`, model.AppQuery{PID: 701}, 20*time.Second, nil)
	if res.Outcome != Met || res.Match == nil || res.Limits != nil {
		t.Fatalf("wait for the last row: %+v", res)
	}
}

// A wait that a limit kept from seeing its window whole says which limit and where; so does one
// that timed out while its window was still being read.
func TestWaitUnmetSaysWhatItCouldNotSee(t *testing.T) {
	r := bigWindow(t, model.WholeBudget().MaxChildren+5, 0)
	res := r.wait(t, `text="More 3"`, model.AppQuery{PID: 701}, 3*time.Second, nil)
	if res.Outcome != Timeout || len(res.Limits) != 1 {
		t.Fatalf("a row past the children budget: %+v", res)
	}
	l := res.Limits[0]
	if !slices.Contains(l.Cut, model.TruncatedChildren) || l.Window.Title != "Big" || l.Elements == 0 || l.Reading ||
		l.Budget.MaxChildren != model.WholeBudget().MaxChildren {
		t.Fatalf("limits: %+v", l)
	}

	slow := bigWindow(t, 300, 100) // each call reads 32 elements and costs 100 ms: the window takes 2 s to read
	res = slow.wait(t, `text="never there"`, model.AppQuery{PID: 701}, 800*time.Millisecond, nil)
	if res.Outcome != Timeout || len(res.Limits) != 1 || !res.Limits[0].Reading {
		t.Fatalf("a window still being read: %+v", res)
	}
	// What the wait could see whole it does not list.
	if res = slow.wait(t, `text="never there"`, model.AppQuery{PID: 701}, 5*time.Second, nil); res.Outcome != Timeout || res.Limits != nil {
		t.Fatalf("a small window read whole: %+v", res)
	}
}
