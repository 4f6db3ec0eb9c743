package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/fixtures"
)

func TestFixturesLoad(t *testing.T) {
	names := fixtures.Desktops()
	if len(names) < 4 {
		t.Fatalf("fixture desktops: %v", names)
	}
	for _, name := range names {
		data, _ := fixtures.Desktop(name)
		if _, err := Parse(name+".json", data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestReadSpecNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(path, []byte(`{"apps": [{"name": "A", "pid": 1, "windows": [{"id": "w", "role": "AXWindw"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), "broken.json: apps[0].windows[0]") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("loaded a missing file")
	}
}

// oneWindow wraps window children into a one-app desktop.
func oneWindow(children string) string {
	return `{"apps": [{"name": "A", "pid": 1, "windows": [{"id": "w", "role": "AXWindow", "children": [` + children + `]}]` +
		`, "reactions": [], "scripts": []}]}`
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       []string // every part must be in the error
	}{
		{"syntax", "{\n  \"apps\": [\n    {,\n", []string{"bad.json:3:6", "invalid character"}},
		{"unknown field", "{\"apps\": [{\"name\": \"A\", \"pid\": 1,\n \"tittle\": \"x\"}]}", []string{"bad.json:2:2", `unknown field "tittle"`}},
		{"type", `{"apps": [{"name": "A", "pid": "one"}]}`, []string{"bad.json:1:", "apps.pid: want int, not a JSON string"}},
		{"value type", `{"apps": [{"name": "A", "pid": 1, "windows": [{"id": "w", "role": "AXWindow", "value": [1]}]}]}`, []string{"bad.json: apps.windows.value: want a string, a number or a boolean, not a JSON array"}},
		{"trailing", `{"apps": []} {}`, []string{"bad.json:1:", "after the fixture"}},
		{"empty", ``, []string{"bad.json", "empty"}},
		{"no apps", `{}`, []string{"bad.json: apps: missing"}},
		{"pid", `{"apps": [{"name": "A", "pid": 0, "windows": []}]}`, []string{"apps[0].pid", "positive"}},
		{"dup pid", `{"apps": [{"name": "A", "pid": 3, "windows": []}, {"name": "B", "pid": 3, "windows": []}]}`, []string{"apps[1].pid", "taken by apps[0]"}},
		{"top level", `{"apps": [{"name": "A", "pid": 1, "windows": [{"id": "s", "role": "AXSheet"}]}]}`, []string{"apps[0].windows[0]", "must be an AXWindow"}},
		{"role", oneWindow(`{"id": "b", "role": "AXButon"}`), []string{`apps[0].windows[0].children[0] (id "b")`, `unknown AX role "AXButon"`}},
		{"no role", oneWindow(`{"id": "b"}`), []string{`(id "b")`, "missing role"}},
		{"no id", oneWindow(`{"role": "AXButton"}`), []string{"children[0].id", "missing"}},
		{"dup id", oneWindow(`{"id": "b", "role": "AXButton"}, {"id": "b", "role": "AXButton"}`), []string{`children[1] (id "b")`, "duplicate id (first at apps[0].windows[0].children[0])"}},
		{"frame", oneWindow(`{"id": "b", "role": "AXButton", "frame": [1, 2, 3]}`), []string{`(id "b").frame`, "[x, y, w, h]"}},
		{"negative frame", oneWindow(`{"id": "b", "role": "AXButton", "frame": [1, 2, -3, 4]}`), []string{"negative"}},
		{"range", oneWindow(`{"id": "s", "role": "AXSlider", "min": 10, "max": 1}`), []string{`(id "s")`, "above max"}},
		{"sheet parent", oneWindow(`{"id": "g", "role": "AXGroup", "children": [{"id": "s", "role": "AXSheet"}]}`), []string{`(id "s")`, "child of an AXWindow"}},
		{"nested window", oneWindow(`{"id": "x", "role": "AXWindow"}`), []string{`(id "x")`, "top-level"}},
		{"two focused", oneWindow(`{"id": "a", "role": "AXTextField", "focused": true}, {"id": "b", "role": "AXTextField", "focused": true}`), []string{`(id "b").focused`, `"a" has it`}},
		{"settable", oneWindow(`{"id": "a", "role": "AXTextField", "settable": ["AXTitle"]}`), []string{`(id "a").settable`, `cannot set "AXTitle"`}},
		{"action name", oneWindow(`{"id": "a", "role": "AXButton", "actions": ["press"]}`), []string{`"press" is not an AX action`}},
		{"repeat count", oneWindow(`{"id": "r-%d", "role": "AXRow", "repeat": {"count": 0}}`), []string{"children[0].repeat.count", "must be 1 to"}},
		{"repeat id", oneWindow(`{"id": "r", "role": "AXRow", "repeat": {"count": 2}}`), []string{"children[0].id", "needs %d"}},
		{"nested repeat", oneWindow(`{"id": "r-%d", "role": "AXRow", "repeat": {"count": 2}, "children": [{"id": "c-%d", "role": "AXCell", "repeat": {"count": 2}}]}`), []string{"repeat inside a repeated node"}},
		{"repeat copies", oneWindow(`{"id": "r-%d", "role": "AXRow", "repeat": {"count": 3}, "children": [{"id": "fixed", "role": "AXCell"}]}`), []string{`children[0](copy 2).children[0] (id "fixed")`, "duplicate id"}},
		{"too many", oneWindow(`{"id": "r-%d", "role": "AXRow", "repeat": {"count": 10000}, "children": [{"id": "a-%d", "role": "AXCell", "children": [{"id": "b-%d", "role": "AXCell"}, {"id": "c-%d", "role": "AXCell"}, {"id": "d-%d", "role": "AXCell"}, {"id": "e-%d", "role": "AXCell"}, {"id": "f-%d", "role": "AXCell"}, {"id": "g-%d", "role": "AXCell"}, {"id": "h-%d", "role": "AXCell"}, {"id": "i-%d", "role": "AXCell"}, {"id": "j-%d", "role": "AXCell"}, {"id": "k-%d", "role": "AXCell"}]}]}`), []string{"exceed 100000 elements"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.json", []byte(tc.json))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// behaviour wraps reactions, scripts and faults into a one-app desktop with a button "b" and a
// text field "f".
func behaviour(fields string) string {
	return `{"apps": [{"name": "A", "pid": 1, "windows": [{"id": "w", "role": "AXWindow", "children": [` +
		`{"id": "b", "role": "AXButton"}, {"id": "f", "role": "AXTextField"}]}], ` + fields + `}]}`
}

func TestParseBehaviourErrors(t *testing.T) {
	for _, tc := range []struct {
		name, fields string
		want         []string
	}{
		{"trigger element", `"reactions": [{"on": {"element": "nope", "action": "AXPress"}, "do": [{"remove": "b"}]}]`, []string{"reactions[0].on.element", `unknown element "nope"`}},
		{"trigger both", `"reactions": [{"on": {"element": "b", "action": "AXPress", "set": "AXValue"}, "do": [{"remove": "b"}]}]`, []string{"reactions[0].on", "either action or set"}},
		{"trigger action", `"reactions": [{"on": {"element": "b", "action": "AXPres"}, "do": [{"remove": "b"}]}]`, []string{"reactions[0].on.action", `"b" does not offer AXPres`, "AXPress"}},
		{"trigger set", `"reactions": [{"on": {"element": "b", "set": "AXValue"}, "do": [{"remove": "b"}]}]`, []string{"reactions[0].on.set", "cannot set AXValue"}},
		{"no effects", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": []}]`, []string{"reactions[0].do", "at least one effect"}},
		{"two verbs", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"remove": "b", "focus": "f"}]}]`, []string{"reactions[0].do[0]", "exactly one of"}},
		{"stray field", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"remove": "b", "title": "x"}]}]`, []string{"belong to set"}},
		{"effect element", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"set": "gone", "title": "x"}]}]`, []string{"reactions[0].do[0]", `unknown element "gone"`}},
		{"empty set", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"set": "f"}]}]`, []string{"set changes nothing"}},
		{"add window", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"add": {"id": "x", "role": "AXButton"}}]}]`, []string{"reactions[0].do[0].add", "must be an AXWindow"}},
		{"add clash", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"add": {"id": "f", "role": "AXButton"}, "to": "w"}]}]`, []string{`do[0].add (id "f")`, "cannot reuse"}},
		{"add to", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"add": {"id": "x", "role": "AXButton"}, "to": "nowhere"}]}]`, []string{"do[0].to", `unknown element "nowhere"`}},
		{"notify", `"reactions": [{"on": {"element": "b", "action": "AXPress"}, "do": [{"notify": "AXNothing"}]}]`, []string{"do[0].notify", `unknown AX notification "AXNothing"`}},
		{"script name", `"scripts": [{"steps": [{"do": [{"notify": "AXLayoutChanged"}]}]}]`, []string{"scripts[0].name"}},
		{"script loop", `"scripts": [{"name": "s", "loop_ms": 100, "steps": [{"at_ms": 100, "do": [{"notify": "AXLayoutChanged"}]}]}]`, []string{"scripts[0].steps[0].at_ms", "below loop_ms"}},
		{"script effect", `"scripts": [{"name": "s", "steps": [{"do": [{"focus": "zz"}]}]}]`, []string{"scripts[0].steps[0].do[0]", `unknown element "zz"`}},
		{"fault kind", `"faults": [{"kind": "flaky"}]`, []string{"faults[0].kind", `unknown fault "flaky"`}},
		{"fault element", `"faults": [{"kind": "transient", "element": "zz"}]`, []string{"faults[0].element"}},
		{"fault slow", `"faults": [{"kind": "slow"}]`, []string{"faults[0].latency_ms"}},
		{"fault code", `"faults": [{"kind": "transient", "code": "TIMEOUT"}]`, []string{"faults[0].code"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.json", []byte(behaviour(tc.fields)))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestParseAcceptsReactionOnAddedElement(t *testing.T) {
	spec := behaviour(`"reactions": [
		{"on": {"element": "b", "action": "AXPress"}, "do": [{"add": {"id": "x", "role": "AXButton"}, "to": "w"}]},
		{"on": {"element": "x", "action": "AXPress"}, "do": [{"remove": "x"}]}]`)
	if _, err := Parse("ok.json", []byte(spec)); err != nil {
		t.Fatal(err)
	}
}

func TestParseValues(t *testing.T) {
	spec, err := Parse("v.json", []byte(`{"apps": [{"name": "A", "pid": 1, "windows": [{"id": "w", "role": "AXWindow", "children": [
		{"id": "n", "role": "AXSlider", "value": 0.5}, {"id": "b", "role": "AXCheckBox", "value": true}, {"id": "s", "role": "AXTextField", "value": "x"}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := []Text{}
	for _, c := range spec.Apps[0].Windows[0].Children {
		got = append(got, *c.Value)
	}
	if got[0] != "0.5" || got[1] != "1" || got[2] != "x" {
		t.Fatalf("values = %q", got)
	}
}

// FuzzLoad: no input makes the loader or a desktop built from it panic.
func FuzzLoad(f *testing.F) {
	demo, _ := fixtures.Desktop("demo")
	f.Add(demo)
	f.Add([]byte(oneWindow(`{"id": "r-%d", "role": "AXRow", "repeat": {"count": 3, "first": 0, "dy": 5}, "frame": [0, 0, 1, 1]}`)))
	f.Add([]byte(behaviour(`"faults": [{"kind": "die", "after_ms": 1}], "scripts": [{"name": "s", "loop_ms": 5, "steps": [{"do": [{"set": "f", "value": "{time}"}]}]}]`)))
	f.Add([]byte(`{"apps": [{"name": "", "pid": -1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		clock := NewFakeClock(epoch)
		d, err := New(spec, WithClock(clock))
		if err != nil {
			t.Fatalf("a parsed spec does not start: %v", err)
		}
		defer d.Close()
		clock.Advance(10 * time.Millisecond)
		for _, a := range spec.Apps {
			for _, w := range a.Windows {
				if ref := d.Ref(a.PID, w.ID); ref != "" {
					d.Read(t.Context(), []model.NodeRef{ref})
				}
			}
		}
	})
}
