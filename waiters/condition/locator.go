package condition

import (
	"slices"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"
)

// Locator names an element the way an element condition does, for an action to act on or a wait
// to wait for, instead of an id from an earlier snapshot: one or more steps, each looking within
// the matches of the step before.
type Locator struct {
	Steps []LocatorStep
}

// LocatorStep is one step of a locator. Cond says what its elements are: an element condition,
// or, for the first step only, a window or dialog condition that picks the windows to look in.
// Nth, when set, keeps only the N-th of the step's matches in tree order (1-based).
type LocatorStep struct {
	Cond *Condition
	Nth  int
}

// Bounds of a locator.
const (
	MaxLocatorSteps = MaxDepth
	MaxNth          = 10000
)

// locatorExample is the suggestion of a locator's syntax errors.
const locatorExample = `Write a locator like role=button,name=Save, name~Save,nth=2 or dialog:title~Save >> role=button,name=OK (the fields of element conditions, nth=N, and >> for within).`

// ParseLocator parses the compact form of a locator, validated. Its grammar, in the terms of
// ParseCompact's:
//
//	locator = step { ">>" step } .
//	step    = ( "window" | "dialog" ) [ ":" "title" match ]     (* the first step only *)
//	        | [ "element" ":" ] lfield { "," lfield } .
//	lfield  = field | "nth" "=" digits .
//
// A refusal is a BAD_REQUEST *model.Error placed as ParseCompact places its own.
func ParseLocator(s string) (*Locator, error) {
	p := &parser{sc: scanner{src: []rune(s)}, spans: map[*Condition]*span{}, locator: true}
	if err := p.advance(); err != nil {
		return nil, err
	}
	l := &Locator{}
	for {
		if len(l.Steps) == MaxLocatorSteps {
			return nil, p.failAt(p.tok.col, "more than "+strconv.Itoa(MaxLocatorSteps)+" steps", "Name the element with fewer >> steps.")
		}
		st, err := p.locatorStep(len(l.Steps) == 0)
		if err != nil {
			return nil, err
		}
		l.Steps = append(l.Steps, st)
		switch p.tok.kind {
		case tokWithin:
			if err := p.advance(); err != nil {
				return nil, err
			}
			continue
		case tokEnd:
			if st.Cond.Kind != KindElement {
				return nil, p.expected("'>>' and the element within the " + string(st.Cond.Kind))
			}
			return l, nil
		}
		if st.Cond.Kind == KindElement {
			return nil, p.expected("',', '>>' or the end")
		}
		return nil, p.expected("'>>'")
	}
}

// locatorStep reads one step; a window or dialog step only comes first.
func (p *parser) locatorStep(first bool) (LocatorStep, error) {
	if p.isWord(string(KindWindow)) || p.isWord(string(KindDialog)) {
		if !first {
			return LocatorStep{}, p.failAt(p.tok.col, "a "+p.tok.text+" step comes first", locatorExample)
		}
		c, err := p.leaf()
		return LocatorStep{Cond: c}, err
	}
	if p.isWord(string(KindElement)) {
		if err := p.advance(); err != nil {
			return LocatorStep{}, err
		}
		if p.tok.kind != tokColon {
			return LocatorStep{}, p.expected("':' after element")
		}
		if err := p.advance(); err != nil {
			return LocatorStep{}, err
		}
	}
	c := &Condition{Kind: KindElement}
	sp := &span{start: p.tok.col, fields: map[string]int{}}
	p.spans[c], p.kind = sp, KindElement
	st := LocatorStep{Cond: c}
	words := fieldWords(KindElement)
	for {
		name := p.tok
		switch {
		case p.isWord("nth"):
			if err := p.nth(&st); err != nil {
				return st, err
			}
		case name.kind == tokWord && slices.Contains(words, name.text):
			if err := p.advance(); err != nil {
				return st, err
			}
			if err := p.field(c, sp, name); err != nil {
				return st, err
			}
		default:
			return st, p.expected("a field: " + orList(singleQuoted(append(words, "nth"))))
		}
		if p.tok.kind != tokComma {
			break
		}
		if err := p.advance(); err != nil {
			return st, err
		}
	}
	sp.end = p.tok.col
	if f := c.check("", 1, new(int)); f != nil {
		return st, p.place(f)
	}
	return st, nil
}

// nth reads nth=N.
func (p *parser) nth(st *LocatorStep) error {
	at := p.tok.col
	if st.Nth != 0 {
		return p.twice(p.tok)
	}
	if err := p.advance(); err != nil {
		return err
	}
	if p.tok.kind != tokEq {
		return p.expected("'=' after nth")
	}
	if err := p.advance(); err != nil {
		return err
	}
	n, err := strconv.Atoi(p.tok.text)
	if p.tok.kind != tokWord || err != nil || n < 1 || n > MaxNth {
		return p.expected("a number from 1 to " + strconv.Itoa(MaxNth) + " after nth= (column " + strconv.Itoa(at) + ")")
	}
	st.Nth = n
	return p.advance()
}

// String is the locator's compact form, canonical: ParseLocator reads it back as it is.
func (l *Locator) String() string {
	parts := make([]string, len(l.Steps))
	for i, st := range l.Steps {
		s := st.Cond.String()
		if st.Cond.Kind == KindElement {
			s = strings.TrimPrefix(s, string(KindElement)+":")
		}
		if st.Nth > 0 {
			s += ",nth=" + strconv.Itoa(st.Nth)
		}
		parts[i] = s
	}
	return strings.Join(parts, " >> ")
}

// Element is the locator's last step as an element condition: what every element it finds
// matches, for checks a condition makes of one element.
func (l *Locator) Element() *Condition { return l.Steps[len(l.Steps)-1].Cond }

// IsLocator reports whether s reads as a locator rather than a condition: a nesting, or a first
// word that is a field of elements rather than a kind of condition (role=button,name=Save).
func IsLocator(s string) bool {
	sc := scanner{src: []rune(s)}
	first, f := sc.scan()
	if f != nil || first.kind != tokWord {
		return false
	}
	for t := first; t.kind != tokEnd; {
		if t.kind == tokWithin {
			return true
		}
		if t, f = sc.scan(); f != nil {
			return false
		}
	}
	return first.text == "nth" || (slices.Contains(fieldWords(KindElement), first.text) && !isLeafKind(Kind(first.text)))
}

// Tree is what a locator searches: a window's elements in tree order (pre-order), and those
// under one of them (it first). A live window's copy is one; an inspection, through listed.
type Tree interface {
	Each(fn func(*model.Node) bool)
	EachUnder(ref model.NodeRef, fn func(*model.Node) bool)
	Window() model.Window
}

// Found is one element a locator found, in the tree that holds it.
type Found struct {
	Tree Tree
	Node model.Node
}

// Find lists the elements l matches in the trees, in tree order, each once, metered by mt: once
// it stops, what Find returns proves nothing.
func (l *Locator) Find(trees []Tree, mt *Meter) []Found {
	steps := l.Steps
	if w := steps[0].Cond; w.Kind != KindElement {
		var picked []Tree
		for _, t := range trees {
			win := t.Window()
			if (w.Kind != KindDialog || isDialog(win.Role)) && (w.Title == nil || w.Title.matchesWithin(win.Title, mt)) {
				picked = append(picked, t)
			}
		}
		trees, steps = picked, steps[1:]
	}
	var within []Found // nil: the whole windows
	for i, st := range steps {
		var hits []Found
		seen := map[model.NodeRef]bool{}
		collect := func(t Tree, skip model.NodeRef) func(*model.Node) bool {
			return func(n *model.Node) bool {
				if n.Ref != skip && !seen[n.Ref] && st.Cond.matchesElement(n, mt) {
					seen[n.Ref] = true
					hits = append(hits, Found{Tree: t, Node: *n})
				}
				return !mt.Done()
			}
		}
		if i == 0 {
			for _, t := range trees {
				t.Each(collect(t, ""))
			}
		} else {
			for _, c := range within {
				c.Tree.EachUnder(c.Node.Ref, collect(c.Tree, c.Node.Ref))
			}
		}
		if st.Nth > 0 {
			if st.Nth > len(hits) {
				return nil
			}
			hits = hits[st.Nth-1 : st.Nth]
		}
		if len(hits) == 0 {
			return nil
		}
		within = hits
	}
	return within
}

// FindIn lists the elements of an inspection the locator matches, in tree order: what
// inspect --find shows, ids and all. An element past the inspection's budget is not found.
func (l *Locator) FindIn(insp *model.Inspection) []model.Element {
	hits := l.Find([]Tree{listed{insp}}, nil)
	out := make([]model.Element, len(hits))
	for i, h := range hits {
		out[i] = insp.Elements[h.Tree.(listed).index(h.Node.Ref)]
	}
	return out
}

// listed is an inspection as a tree: its elements in their listed (pre-)order, an element's
// id standing for its handle.
type listed struct{ insp *model.Inspection }

func (t listed) Window() model.Window {
	w := model.Window{ID: t.insp.Window.ID, Title: t.insp.Window.Title}
	if len(t.insp.Elements) > 0 {
		w.Role = t.insp.Elements[0].Role
	}
	return w
}

func (t listed) Each(fn func(*model.Node) bool) { t.from(0, fn) }

func (t listed) EachUnder(ref model.NodeRef, fn func(*model.Node) bool) {
	if i := t.index(ref); i >= 0 {
		t.from(i, fn)
	}
}

// from calls fn for element i and those listed under it.
func (t listed) from(i int, fn func(*model.Node) bool) {
	els := t.insp.Elements
	for j := i; j < len(els) && (j == i || els[j].Depth > els[i].Depth); j++ {
		n := nodeOf(els[j])
		if !fn(&n) {
			return
		}
	}
}

func (t listed) index(ref model.NodeRef) int {
	return slices.IndexFunc(t.insp.Elements, func(e model.Element) bool { return model.NodeRef(e.ID) == ref })
}

// nodeOf is what a condition can test of a listed element.
func nodeOf(e model.Element) model.Node {
	n := model.Node{Ref: model.NodeRef(e.ID), Role: e.Role, PlatformRole: e.PlatformRole, Subrole: e.Subrole,
		Name: e.Name, Label: e.Label, Description: e.Description, Identifier: e.Identifier, Text: e.Text,
		Bounds: e.Bounds, States: e.States, Secure: e.Secure}
	if e.Value != nil {
		n.Value, n.HasValue = *e.Value, true
	}
	return n
}
