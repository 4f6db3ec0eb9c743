package condition

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

// anyOf is the compact `any` of n copies of leaf.
func anyOf(leaf string, n int) string {
	return strings.Join(slices.Repeat([]string{leaf}, n), " or ")
}

// TestCostlyRegexesAreRefusedWhenParsed: the condition (any of 32 /[S-U]{999}a!/) and
// one such regex alone are refused with CONDITION_TOO_COSTLY, where the compact form places it
// and where the JSON form points; 32 small ones within the bound are taken.
func TestCostlyRegexesAreRefusedWhenParsed(t *testing.T) {
	for _, expr := range []string{anyOf(`text:/[S-U]{999}a!/`, 32), `text:/[S-U]{999}a!/`, anyOf(`text:/[S-U]{40}a!/`, 32)} {
		_, err := ParseCompact(expr)
		var e *model.Error
		if !errors.As(err, &e) || e.Code != model.CodeConditionTooCostly || e.Suggestion == "" || e.Details["position"] == nil {
			t.Fatalf("%.60s...: %v (%+v)", expr, err, e)
		}
		t.Logf("%.40s: %s; %s", expr, e.Message, e.Suggestion)
	}
	var c Condition
	err := json.Unmarshal([]byte(`{"kind":"any","of":[{"kind":"text","text":{"op":"regex","value":"[S-U]{600}"}},{"kind":"value","role":"text_field","value":{"op":"regex","value":"[S-U]{600}"}}]}`), &c)
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeConditionTooCostly || e.Details["path"] != "/of/1" {
		t.Fatalf("JSON: %v (%+v)", err, e)
	}
	for _, ok := range []string{anyOf(`text:/[S-U]{27}a!/`, 32), `text:/[S-U]{990}a!/`, anyOf(`text~"a long phrase"`, 32)} {
		if _, err := ParseCompact(ok); err != nil {
			t.Errorf("%.60s: %v", ok, err)
		}
	}
}

// TestARegexReadsTheFirst16KiB: a regex reads MatchWindow bytes of a string, cut at a character;
// contains reads all of it.
func TestARegexReadsTheFirst16KiB(t *testing.T) {
	long := strings.Repeat("é", MatchWindow/2-1) + "x" + "é" + "tail"
	if len(window(long)) > MatchWindow || !strings.HasSuffix(window(long), "x") {
		t.Fatalf("the window ends %q (%d bytes)", window(long)[len(window(long))-4:], len(window(long)))
	}
	for _, c := range []struct {
		m    *StringMatch
		want bool
	}{{Regex("x"), true}, {Regex("tail"), false}, {Contains("TAIL"), true}, {Contains("xétail"), true}} {
		if err := c.m.check(); err != nil {
			t.Fatal(err.what)
		}
		if got := c.m.matches(long); got != c.want {
			t.Errorf("%s %q: %v", c.m.Op, c.m.Value, got)
		}
	}
	// contains ignoring case is linear: a^n against a long run of a's is no quadratic search.
	runOfA, want := strings.Repeat("a", 200<<10), strings.Repeat("A", 999)+"B"
	start := time.Now()
	if Contains(want).matches(runOfA) {
		t.Fatal("matched")
	}
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("contains took %v over 200 KiB", took)
	}
}

// TestTheMeterStopsAnEvaluation: an evaluation stops before the comparison that would take it
// past its budget, and once its wait has ended; a stopped one proves nothing.
func TestTheMeterStopsAnEvaluation(t *testing.T) {
	c, err := ParseCompact(`text:/[S-U]{990}a!/`)
	if err != nil {
		t.Fatal(err)
	}
	big := &model.Node{Role: model.RoleText, Text: strings.Repeat("S", 200<<10)}
	v := &listView{elements: []*model.Node{big, big, big}}
	mt := &Meter{left: 2 * int64(c.Text.prepared.insts) * (MatchWindow + 1)}
	start := time.Now()
	if ok, _, _ := c.HoldsWithin(v, mt); ok || !mt.over || mt.used != 2*int64(c.Text.prepared.insts)*(MatchWindow+1) {
		t.Fatalf("holds %v, over %v, used %d", ok, mt.over, mt.used)
	}
	t.Logf("two comparisons of a 990-repetition regex over 16 KiB of S: %v", time.Since(start))
	ended := false
	mt = NewMeter(64<<20, func() bool { return ended }) // the budget of a whole evaluation
	ended = true
	gone, err := ParseCompact(`text:/[S-U]{990}a!/ gone`)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, _ := gone.HoldsWithin(v, mt); !mt.Done() || mt.used != 0 || mt.over {
		t.Fatalf("an ended wait's evaluation: holds %v (proves nothing), used %d", ok, mt.used)
	}
}

// listView is a View of a list of elements.
type listView struct{ elements []*model.Node }

func (v *listView) Elements(fn func(*model.Node) bool) {
	for _, n := range v.elements {
		if !fn(n) {
			return
		}
	}
}
func (v *listView) Windows() []model.Window    { return nil }
func (v *listView) Focused() *model.Node       { return nil }
func (v *listView) Element(string) *model.Node { return nil }
