package condition

import (
	"fmt"
	"regexp/syntax"

	"github.com/axbus/axbus/model"
)

// The cost of evaluating a condition. Go's RE2 is linear in the text, but its factor is the
// compiled program's size: /[S-U]{999}a!/ is a thousand instructions, each live at every byte
// of a text of S, T and U, and took 1.45 s over 200 KiB (7 ns per instruction and byte). A
// condition's cost is counted in steps: a regex's instructions times the bytes it reads, one
// step per byte for exact and contains. Its regexes are bounded when it is parsed, the text a
// regex reads is bounded, and every evaluation is metered while it runs.
const (
	// MatchWindow is how much of a string a regex reads: its first 16 KiB (cut at a character
	// boundary; $ then matches at the cut). Exact and contains read the whole string (linear).
	MatchWindow = 16 << 10
	// MaxRegexProgram is how many instructions a condition's regexes may compile to in all: a
	// regex costs at most MaxRegexProgram x MatchWindow steps per string (16 M, ~0.1 s).
	MaxRegexProgram = 1000
)

// Meter counts the steps of one evaluation. It stops the evaluation, between two string
// comparisons, once its budget is spent or its wait has ended (timed out, cancelled, met): no
// comparison starts that would take it past its budget. A nil Meter never stops.
type Meter struct {
	left  int64
	ended func() bool
	// over says the budget ran out; stopped, that the evaluation stopped (over, or ended). An
	// evaluation that stopped proves nothing: its outcome is dropped.
	over, stopped bool
	used          int64
}

// NewMeter is a meter of budget steps that stops once ended reports true (nil: never).
func NewMeter(budget int64, ended func() bool) *Meter {
	return &Meter{left: budget, ended: ended}
}

// spend reports whether a comparison of cost steps may run, and counts it.
func (m *Meter) spend(cost int64) bool {
	if m == nil {
		return true
	}
	if m.stopped {
		return false
	}
	if m.ended != nil && m.ended() || cost > m.left {
		m.over = cost > m.left
		m.stopped = true
		return false
	}
	m.left -= cost
	m.used += cost
	return true
}

// Done reports whether the evaluation stopped: what it returned proves nothing.
func (m *Meter) Done() bool { return m != nil && m.stopped }

// Over reports whether the evaluation stopped because its budget ran out.
func (m *Meter) Over() bool { return m != nil && m.over }

// Used is the steps the evaluation took.
func (m *Meter) Used() int64 {
	if m == nil {
		return 0
	}
	return m.used
}

// cost is the steps of comparing s (as trimmed) with m.
func (p *preparedMatch) cost(s string) int64 {
	if p.re != nil {
		return int64(p.insts) * int64(min(len(s), MatchWindow)+1)
	}
	return int64(len(s) + len(p.want) + 1)
}

// window is the part of s a regex reads: its first MatchWindow bytes, cut at a character.
func window(s string) string {
	if len(s) <= MatchWindow {
		return s
	}
	end := MatchWindow
	for end > 0 && !startsRune(s[end]) {
		end--
	}
	return s[:end]
}

// startsRune reports whether b begins a UTF-8 encoded character (it is no continuation byte).
func startsRune(b byte) bool { return b&0xC0 != 0x80 }

// programSize is the instructions of the program the regexp package runs for tree: the cost of
// one byte of text.
func programSize(tree *syntax.Regexp) (int, error) {
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return 0, err
	}
	return len(prog.Inst), nil
}

// regexInsts is the instructions of c's own regexes (not its terms').
func (c *Condition) regexInsts() int {
	n := 0
	for _, m := range []*StringMatch{c.Name, c.Label, c.Description, c.Identifier, c.Value, c.Text, c.Title} {
		if m != nil && m.prepared != nil && m.prepared.re != nil {
			n += m.prepared.insts
		}
	}
	return n
}

// costFault refuses c when its regexes, counted leaf by leaf in the order written, compile to
// more than MaxRegexProgram instructions: the fault names the leaf that went past.
func (c *Condition) costFault(path string, total *int) *fault {
	if c.isLeaf() {
		if *total += c.regexInsts(); *total > MaxRegexProgram {
			return &fault{node: c, path: path, code: model.CodeConditionTooCostly,
				what: fmt.Sprintf("the regexes compile to at least %d instructions, past the %d a condition may have (a regex runs every instruction on every byte of up to %d KiB of each element's text)",
					*total, MaxRegexProgram, MatchWindow>>10),
				suggestion: "Use fewer or smaller counted repetitions (x{999} is a thousand instructions): match a short, distinctive part, e.g. /[S-U]+a!/, or use contains."}
		}
		return nil
	}
	for i, sub := range c.Of {
		if f := sub.costFault(fmt.Sprintf("%s/of/%d", path, i), total); f != nil {
			return f
		}
	}
	return nil
}
