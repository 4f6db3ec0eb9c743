package text

import (
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// MaxReadBytes is the most text one read returns, and its default: 96 KiB of UTF-8, enough for a
// long article and small enough for an agent's context.
const MaxReadBytes = 96 << 10

// objectReplacement marks, in an AT-SPI hypertext (web content, rich labels), where each child
// element (a link, an image) sits inside its parent's text.
const objectReplacement = '\uFFFC'

// Assemble renders the subtree at index root of a walk as text of at most limit bytes
// (MaxReadBytes when limit <= 0), the way a reader sees the window:
//
//   - Tree order: pre-order, which is DOM order for web content.
//   - What each element gives: a field (text field, text area, search field, combo box, spin
//     button, slider) its value, or a read-only text view its text, and nothing of its
//     children; a pop-up button its chosen item; static text and labels their text (Text, else
//     Name); any element its Text when the backend read one, else, when it is editable, its
//     value (a document's paragraph, whose text the backend reads as a value). A container
//     (button, link, heading, cell, menu, ...) gives its Name only when nothing inside it gives
//     text, so a button's label and a heading's static text child are read once; a child whose
//     text its parent's own text already holds is not repeated. Windows, groups, tables, scroll
//     and web areas never give their names. An AT-SPI hypertext's object replacement characters are replaced
//     by their children's text, in place.
//   - Secure fields (Node.Secure, or the password role) and their subtrees give nothing. Scroll
//     bars and AX table columns (which repeat the rows' cells) are skipped, and so are hidden
//     elements (see observer.HiddenIn: a closed menu's items, a toolbar's overflow) with their subtrees.
//   - Lines: consecutive pieces in the same line container (the nearest enclosing element that
//     is not inline: a paragraph, a group, a row, a toolbar, ...) whose bounds overlap vertically
//     by more than half the smaller height, the second to the right of the first or one inside
//     the other (wrapped text), are one visual line. They are joined with a single space; with
//     none when whitespace or punctuation already separates them ("see " + "docs" + ". More"
//     reads "see docs. More"). Anything else starts a new line. Pieces without bounds (AT-SPI
//     off-screen elements) are lines of their own.
//   - Tables: cells of one row (roles cell and column_header, the children of a row, or, outside
//     web content, of a list's or table's item) that share a visual line are joined by tabs; an
//     empty cell keeps its column (an empty field between two tabs). Without bounds, the cells
//     of a row element still share its line.
//   - A piece that holds newlines (a multi-line text view) keeps them, on lines of its own;
//     carriage returns become newlines.
//   - Trailing whitespace is trimmed from every line; empty lines from empty pieces are dropped,
//     and so are leading and trailing blank lines of a piece (blank lines inside it are kept).
//   - The limit cuts on a character boundary, never inside a UTF-8 sequence; invalid UTF-8 from a
//     backend becomes U+FFFD. truncated reports the cut; omitted counts the pieces that did not
//     fit whole (the one cut in the middle included).
func Assemble(w observer.WalkResult, root int, limit int) (text string, lines int, truncated bool, omitted int) {
	t := AssembleWith(w, root, Options{Limit: limit})
	return t.Text, t.Lines, t.Truncated, t.Omitted
}

// Options says how much of a subtree AssembleWith reads.
type Options struct {
	// Limit is the most bytes of text: <= 0 means MaxReadBytes.
	Limit int
	// All reads hidden elements too: everything the tree holds, as if every menu were open.
	All bool
}

// Assembled is the text of a subtree and what was left out of it.
type Assembled struct {
	Text  string
	Lines int
	// Truncated reports the limit's cut; Omitted counts the pieces that did not fit whole.
	Truncated bool
	Omitted   int
	// Hidden counts the hidden elements left out that hold text: what All would add.
	Hidden int
}

// AssembleWith is Assemble with options: the limit, and whether hidden elements are read.
func AssembleWith(w observer.WalkResult, root int, opt Options) Assembled {
	if root < 0 || root >= len(w.Nodes) {
		return Assembled{}
	}
	if opt.Limit <= 0 {
		opt.Limit = MaxReadBytes
	}
	l := newTextLayout(w.Nodes, root, opt.All)
	tw := textWriter{limit: opt.Limit}
	tw.write(l.pieces(root))
	t := Assembled{Text: tw.out.String(), Truncated: tw.truncated, Omitted: tw.omitted, Hidden: l.hiddenWithText}
	if t.Text != "" {
		t.Lines = strings.Count(t.Text, "\n") + 1
	}
	return t
}

// textLayout is the subtree being assembled, with what each element's pieces need to know to be
// laid out: per element (indexed from root), its walked children, its line container and its
// table cell.
type textLayout struct {
	nodes []observer.Walked
	root  int
	kids  [][]int
	// anchor is the element whose lines hold the element's own pieces: itself for a container,
	// the nearest container above for inline elements, the row for anything inside a cell.
	// -1 when an inline root has no container in the subtree.
	anchor []int
	// cell is the outermost table cell holding the element (itself included), -1 outside tables.
	cell []int
	row  []bool
	// hidden marks the hidden elements (see observer.HiddenIn), nil when all are read;
	// hiddenWithText counts those left out that hold text.
	hidden         []bool
	hiddenWithText int
}

func newTextLayout(nodes []observer.Walked, root int, all bool) *textLayout {
	end := root + 1
	for end < len(nodes) && nodes[end].Depth > nodes[root].Depth {
		end++
	}
	n := end - root
	l := &textLayout{nodes: nodes, root: root, kids: make([][]int, n), anchor: make([]int, n), cell: make([]int, n), row: make([]bool, n)}
	inWeb := make([]bool, n)
	for i := root; i < end; i++ {
		o, role := i-root, nodes[i].Role
		parentRole, anchor, cell, parentRow := model.Role(""), -1, -1, false
		if i != root {
			p := nodes[i].Parent - root
			l.kids[p] = append(l.kids[p], i)
			parentRole, anchor, cell, parentRow, inWeb[o] = nodes[root+p].Role, l.anchor[p], l.cell[p], l.row[p], inWeb[p]
		}
		inWeb[o] = inWeb[o] || role == model.RoleWebArea
		l.row[o] = isTextRow(role, parentRole, inWeb[o])
		switch {
		case l.row[o]:
			cell = -1 // a row, even inside a cell, makes its own line of cells
		case cell < 0 && (cellRoles[role] || parentRow):
			cell = i
		}
		switch {
		case l.row[o]:
			anchor = i
		case cell >= 0: // everything inside a cell stays on its row's line
		case !inlineRoles[role]:
			anchor = i
		}
		l.anchor[o], l.cell[o] = anchor, cell
	}
	if !all {
		l.hidden = observer.HiddenIn(nodes, root, end)
	}
	return l
}

// pieces returns the text pieces of the subtree at i, in reading order (see Assemble).
func (l *textLayout) pieces(i int) []textPiece {
	n := &l.nodes[i].Node
	switch {
	case n.Secure || n.Role == model.RolePassword || unreadRoles[n.Role]:
		return nil
	case l.leftHidden(i):
		return nil
	}
	return l.ownPieces(i)
}

// ownPieces are the pieces of element i when it is read: its own text and its children's.
func (l *textLayout) ownPieces(i int) []textPiece {
	n := &l.nodes[i].Node
	switch {
	case valueTextRoles[n.Role]:
		if n.HasValue && n.Value != "" {
			return l.piece(i, n.Value)
		}
		if item := l.chosenItem(i); n.Role == model.RoleComboBox && item != "" {
			return l.piece(i, item)
		}
		return l.piece(i, n.Text)
	case n.Role == model.RolePopUpButton && n.HasValue && n.Value != "":
		return l.piece(i, n.Value) // the chosen item; the menu's other items are not on screen
	}
	own := n.Text
	switch {
	case own != "":
	case namedByTextRoles[n.Role]:
		own = n.Name
	case n.HasValue && n.States.Has(model.StateEditable):
		own = n.Value // editable content (a paragraph): the backend reads its text as a value
	}
	if strings.ContainsRune(own, objectReplacement) {
		return l.hypertext(i, own)
	}
	kids := l.kidPieces(i)
	switch {
	case own != "":
		return append(l.piece(i, own), notRepeating(kids, own)...)
	case anyText(kids):
		return kids
	case !layoutRoles[n.Role] && n.Name != "":
		return l.piece(i, n.Name)
	case cellRoles[n.Role]:
		return []textPiece{l.emptyCell(i)}
	}
	return kids // the empty cells of a row keep its columns
}

// chosenItem is the name of the selected item inside a combo box without a value: a web
// <select> keeps its options in a menu below it, the chosen one selected.
func (l *textLayout) chosenItem(i int) string {
	for k := i + 1; k < len(l.nodes) && l.nodes[k].Depth > l.nodes[i].Depth; k++ {
		if n := &l.nodes[k].Node; n.States.Has(model.StateSelected) && n.Name != "" {
			return n.Name
		}
	}
	return ""
}

func (l *textLayout) kidPieces(i int) []textPiece {
	var out []textPiece
	for _, k := range l.kids[i-l.root] {
		out = append(out, l.pieces(k)...)
	}
	return out
}

// hypertext places the children's pieces where the object replacement characters of own stand.
// The k-th character stands for the k-th embedded child: every child when there are as many
// characters as children (GTK), else the children that are not plain text runs, whose text own
// holds already (web content: Chromium and Firefox keep a paragraph's text runs as static-text
// children beside its links, and own holds the runs' text inline). Embedded children without a
// character of their own follow the text.
func (l *textLayout) hypertext(i int, own string) []textPiece {
	kids := embeddedKids(l.nodes, l.kids[i-l.root], strings.Count(own, string(objectReplacement)))
	segments := strings.Split(own, string(objectReplacement))
	var out []textPiece
	for s, seg := range segments {
		out = append(out, l.piece(i, seg)...)
		if s < len(segments)-1 && s < len(kids) {
			out = append(out, l.pieces(kids[s])...)
		}
	}
	for _, k := range kids[min(len(segments)-1, len(kids)):] {
		out = append(out, l.pieces(k)...)
	}
	return out
}

// embeddedKids are the children that object replacement characters stand for, given how many
// characters there are (see hypertext).
func embeddedKids(nodes []observer.Walked, kids []int, chars int) []int {
	if chars == len(kids) {
		return kids
	}
	var emb []int
	for _, k := range kids {
		if n := &nodes[k].Node; n.Role != model.RoleText || n.ChildCount > 0 {
			emb = append(emb, k)
		}
	}
	return emb
}

// piece makes the piece of element i's text raw; none when raw holds no text.
func (l *textLayout) piece(i int, raw string) []textPiece {
	text, spaceBefore, spaceAfter := cleanText(raw)
	if text == "" {
		return nil
	}
	p := l.emptyCell(i)
	p.text, p.spaceBefore, p.spaceAfter = text, spaceBefore, spaceAfter
	p.multiline = strings.Contains(text, "\n")
	return []textPiece{p}
}

// emptyCell is a piece with no text at element i's place: an empty cell that keeps its column.
func (l *textLayout) emptyCell(i int) textPiece {
	o := i - l.root
	p := textPiece{rect: usableRect(l.nodes[i].Bounds), anchor: l.anchor[o], cell: l.cell[o]}
	p.inRow = p.anchor >= 0 && l.row[p.anchor-l.root]
	return p
}

// leftHidden reports whether element i is hidden and left out, counting it when it holds text.
func (l *textLayout) leftHidden(i int) bool {
	if l.hidden == nil || !l.hidden[i-l.root] {
		return false
	}
	if anyText(l.ownPieces(i)) { // nothing below a hidden element is hidden: its parent is not showing
		l.hiddenWithText++
	}
	return true
}

func anyText(ps []textPiece) bool {
	for i := range ps {
		if ps[i].text != "" {
			return true
		}
	}
	return false
}

// notRepeating drops the pieces whose text own already holds, and empty cells.
func notRepeating(ps []textPiece, own string) []textPiece {
	var out []textPiece
	for _, p := range ps {
		if p.text != "" && !strings.Contains(own, p.text) {
			out = append(out, p)
		}
	}
	return out
}

func usableRect(r *model.Rect) *model.Rect {
	if r == nil || r.Empty() {
		return nil
	}
	return r
}
