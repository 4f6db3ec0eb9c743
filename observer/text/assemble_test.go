package text

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// tnode is a hand-built element with its subtree, flattened by walkOf into a pre-order walk.
type tnode struct {
	model.Node
	kids []tnode
}

func at(x, y, w, h float64) *model.Rect { return &model.Rect{X: x, Y: y, W: w, H: h} }

// el is an element of role with a name (AX title) and bounds.
func el(role model.Role, name string, r *model.Rect, kids ...tnode) tnode {
	return tnode{Node: model.Node{Role: role, Name: name, Bounds: r}, kids: kids}
}

// static is an AX static text: its value is its name and its text.
func static(s string, r *model.Rect) tnode { return el(model.RoleText, s, r) }

// field is an element with a value.
func field(role model.Role, name, value string, r *model.Rect, kids ...tnode) tnode {
	n := el(role, name, r, kids...)
	n.Value, n.HasValue = value, true
	return n
}

// texted is n with an AT-SPI text.
func texted(n tnode, text string) tnode { n.Text = text; return n }

func walkOf(root tnode) observer.WalkResult {
	var w observer.WalkResult
	var add func(t tnode, parent, depth int)
	add = func(t tnode, parent, depth int) {
		i := len(w.Nodes)
		n := t.Node
		n.Ref = model.NodeRef(fmt.Sprint("n", i))
		w.Nodes = append(w.Nodes, observer.Walked{Node: n, Index: i, Parent: parent, Depth: depth})
		for _, k := range t.kids {
			w.Nodes[i].Children = append(w.Nodes[i].Children, model.NodeRef(fmt.Sprint("n", len(w.Nodes))))
			add(k, i, depth+1)
		}
		w.Nodes[i].ChildCount = len(w.Nodes[i].Children)
	}
	add(root, -1, 0)
	return w
}

func window(kids ...tnode) tnode {
	return el(model.RoleWindow, "Window title", at(0, 0, 1000, 1000), kids...)
}

// assemble renders a whole hand-built window without a limit that matters.
func assemble(t *testing.T, root tnode) string {
	t.Helper()
	text, lines, cut, omitted := Assemble(walkOf(root), 0, 1<<20)
	if cut || omitted != 0 {
		t.Errorf("truncated %v, omitted %d, want neither", cut, omitted)
	}
	if want := strings.Count(text, "\n") + 1; text != "" && lines != want {
		t.Errorf("lines = %d, want %d", lines, want)
	}
	return text
}

func expectText(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("text:\n%s\nwant:\n%s\n(%q)", got, want, got)
	}
}

func TestAssembleTextTreeOrderAndVisualLines(t *testing.T) {
	got := assemble(t, window(
		el(model.RoleHeading, "Release notes", at(10, 10, 300, 30), static("Release notes", at(10, 12, 200, 26))),
		// A paragraph wrapped over two lines, with a link inside its second line.
		el(model.RoleGroup, "", at(10, 50, 400, 40),
			static("Version 2.4 brings faster sync; see ", at(10, 50, 400, 40)),
			el(model.RoleLink, "the notes", at(100, 70, 80, 20), static("the notes", at(100, 70, 80, 20))),
			static(". More soon.", at(180, 70, 90, 20)),
		),
		// Stacked lines in one container stay apart.
		el(model.RoleGroup, "", at(10, 100, 400, 40), static("First line", at(10, 100, 200, 20)), static("Second line", at(10, 120, 200, 20))),
		// Controls side by side join on one line.
		el(model.RoleToolbar, "", at(10, 150, 400, 30), el(model.RoleButton, "Save", at(10, 150, 60, 30)), el(model.RoleButton, "Open", at(80, 150, 60, 30))),
		// Side by side but in different containers (a sidebar and the content): separate lines.
		el(model.RoleGroup, "Sidebar", at(10, 200, 100, 20), static("Inbox", at(10, 200, 100, 20))),
		el(model.RoleGroup, "Content", at(120, 200, 300, 20), static("Hello", at(120, 200, 300, 20))),
		// A later piece to the left on the same line is a new line (reading goes left to right).
		el(model.RoleGroup, "", at(10, 230, 400, 20), static("Right", at(200, 230, 50, 20)), static("Left", at(10, 230, 50, 20))),
	))
	expectText(t, got, "Release notes\n"+
		"Version 2.4 brings faster sync; see the notes. More soon.\n"+
		"First line\nSecond line\n"+
		"Save Open\n"+
		"Inbox\nHello\n"+
		"Right\nLeft")
}

func TestAssembleTextTableRowsAreTabSeparated(t *testing.T) {
	row := func(y float64, cells ...string) tnode {
		r := el(model.RoleRow, "", at(0, y, 300, 20))
		for i, c := range cells {
			x := float64(i * 100)
			cell := el(model.RoleCell, "", at(x, y, 100, 20))
			if c != "" {
				cell.kids = []tnode{static(c, at(x+2, y+2, 90, 16))}
			}
			r.kids = append(r.kids, cell)
		}
		return r
	}
	header := el(model.RoleGroup, "", at(0, 0, 300, 20),
		el(model.RoleColumnHeader, "Region", at(0, 0, 100, 20)), el(model.RoleColumnHeader, "Q1", at(100, 0, 100, 20)), el(model.RoleColumnHeader, "Q2", at(200, 0, 100, 20)))
	got := assemble(t, window(el(model.RoleTable, "Sales", at(0, 0, 300, 100),
		header, row(20, "North", "10", "12"), row(40, "South", "", "9"), row(60, "", "", ""), row(80, "", "7", ""),
		el(model.RoleColumn, "Region", at(0, 0, 100, 100), static("North", at(2, 22, 90, 16))),
	)))
	// The header group is a row of its table (outside web content); the empty cell in the middle
	// keeps its column, an all-empty row gives no line, trailing empty cells no trailing tabs,
	// and the column (which repeats the rows' cells) is skipped.
	expectText(t, got, "Region\tQ1\tQ2\nNorth\t10\t12\nSouth\t\t9\n\t7")
}

func TestAssembleTextTableCellsWithoutRowsOrBounds(t *testing.T) {
	// AT-SPI tree views list their cells flat under the table: bounds make the rows.
	flat := assemble(t, window(el(model.RoleTable, "", at(0, 0, 200, 40),
		el(model.RoleCell, "Alice", at(0, 0, 100, 20)), el(model.RoleCell, "Admin", at(100, 0, 100, 20)),
		el(model.RoleCell, "Bob", at(0, 20, 100, 20)), el(model.RoleCell, "User", at(100, 20, 100, 20)),
	)))
	expectText(t, flat, "Alice\tAdmin\nBob\tUser")

	// Off-screen rows have no bounds on AT-SPI: a row element still holds its cells on one line,
	// and a native list's item with several texts is a row of cells.
	offscreen := assemble(t, window(el(model.RoleList, "", nil,
		el(model.RoleListItem, "", nil, el(model.RoleLabel, "Carol", nil), el(model.RoleLabel, "Editor", nil)),
		el(model.RoleListItem, "", at(0, 0, 200, 20), el(model.RoleLabel, "Dave", at(0, 0, 100, 20)), el(model.RoleLabel, "Owner", at(100, 0, 100, 20))),
	)))
	expectText(t, offscreen, "Carol\tEditor\nDave\tOwner")

	// A web list item holds inline runs, not cells.
	web := assemble(t, window(el(model.RoleWebArea, "Page", at(0, 0, 400, 400), el(model.RoleList, "", at(0, 0, 400, 20),
		el(model.RoleListItem, "", at(0, 0, 400, 20), static("Read ", at(0, 0, 40, 20)), el(model.RoleLink, "the docs", at(40, 0, 60, 20)), static(" first", at(100, 0, 40, 20))),
	))))
	expectText(t, web, "Read the docs first")
}

func TestAssembleTextNamesOnlyWithoutTextInside(t *testing.T) {
	got := assemble(t, window(
		el(model.RoleButton, "OK", at(0, 0, 50, 20)),                                            // a label alone: its name
		el(model.RoleButton, "Close dialog", at(0, 30, 20, 20), static("×", at(0, 30, 20, 20))), // text inside wins
		el(model.RoleCheckbox, "Remember me", at(0, 60, 120, 20), el(model.RoleLabel, "Remember me", at(20, 60, 100, 20))),
		el(model.RoleImage, "Company logo", at(0, 90, 50, 50)),
		el(model.RoleGroup, "Settings pane", at(0, 150, 50, 50)), // a container's name is no text
		el(model.RoleScrollArea, "Items", at(0, 210, 50, 50)),
		// A label whose text its parent's own text holds already is not repeated.
		texted(el(model.RoleParagraph, "", at(0, 270, 300, 20), el(model.RoleLabel, "twice", at(0, 270, 40, 20))), "said twice here"),
	))
	expectText(t, got, "OK\n×\nRemember me\nCompany logo\nsaid twice here")
	if strings.Contains(got, "Window title") || strings.Contains(got, "Close dialog") {
		t.Errorf("a name read though text was there, or a window title read: %q", got)
	}
}

func TestAssembleTextFieldsGiveTheirValue(t *testing.T) {
	got := assemble(t, window(
		field(model.RoleTextField, "Title", "Shopping list", at(0, 0, 200, 20)),
		field(model.RoleTextField, "Empty", "", at(0, 30, 200, 20)), // nothing, not its name
		field(model.RoleComboBox, "Font", "Helvetica", at(0, 60, 200, 20), el(model.RoleList, "", nil, el(model.RoleListItem, "Times", nil))),
		field(model.RoleSlider, "Volume", "50", at(0, 90, 200, 20)),
		texted(el(model.RoleTextField, "Log", at(0, 120, 200, 20)), "read-only view"),
		field(model.RolePopUpButton, "", "Medium", at(0, 150, 100, 20), el(model.RoleMenu, "", nil, el(model.RoleMenuItem, "Small", nil))),
	))
	expectText(t, got, "Shopping list\nHelvetica\n50\nread-only view\nMedium")
}

func TestAssembleTextSkipsSecureFields(t *testing.T) {
	secure := field(model.RoleTextField, "Password", "hunter2", at(0, 30, 200, 20), static("hunter2", at(0, 30, 200, 20)))
	secure.Secure, secure.Text = true, "hunter2"
	password := field(model.RolePassword, "PIN", "4711", at(0, 60, 200, 20))
	got := assemble(t, window(static("Sign in", at(0, 0, 100, 20)), secure, password, static("Forgot?", at(0, 90, 100, 20))))
	expectText(t, got, "Sign in\nForgot?")
	for _, secret := range []string{"hunter2", "4711", "Password", "PIN"} {
		if strings.Contains(got, secret) {
			t.Errorf("read %q of a secure field", secret)
		}
	}
}

func TestAssembleTextKeepsMultiLineText(t *testing.T) {
	got := assemble(t, window(
		field(model.RoleTextArea, "Body", "\n  Dear Ann,  \r\n\r\n    indented\r\nBye   \n\n", at(0, 0, 400, 200)),
		el(model.RoleButton, "Send", at(410, 0, 60, 20)), // beside the text area, still its own line
	))
	expectText(t, got, "  Dear Ann,\n\n    indented\nBye\nSend")
}

func TestAssembleTextDropsEmptyPieces(t *testing.T) {
	got := assemble(t, window(
		static("", at(0, 0, 100, 20)),
		static("  \n ", at(0, 20, 100, 20)),
		static("Hello   ", at(0, 40, 100, 20)),
		el(model.RoleGroup, "", at(0, 60, 100, 20)),
		el(model.RoleCell, "", at(0, 80, 100, 20)),
		static("World\u00a0", at(0, 100, 100, 20)),
	))
	expectText(t, got, "Hello\nWorld")
}

func TestAssembleTextFillsHypertext(t *testing.T) {
	// AT-SPI web content: a paragraph's text holds U+FFFC where each child element sits.
	para := texted(el(model.RoleParagraph, "", at(0, 0, 400, 40),
		texted(el(model.RoleLink, "docs", at(50, 0, 40, 20)), "docs"),
		texted(el(model.RoleLink, "", at(10, 20, 40, 20), texted(el(model.RoleImage, "more", at(10, 20, 20, 20)), "")), "\uFFFC"),
	), "See \uFFFC. Then \uFFFC! \uFFFC")
	section := texted(el(model.RoleGroup, "", at(0, 50, 400, 100),
		texted(el(model.RoleParagraph, "", at(0, 70, 400, 20)), "A block of its own"),
	), "Intro\uFFFCOutro")
	got := assemble(t, window(para, section))
	expectText(t, got, "See docs. Then more!\nIntro\nA block of its own\nOutro")
}

func TestAssembleTextSubtree(t *testing.T) {
	w := walkOf(window(
		static("Outside", at(0, 0, 100, 20)),
		el(model.RoleWebArea, "Page", at(0, 30, 400, 400), el(model.RoleHeading, "Inside", at(0, 30, 100, 20)), static("Body", at(0, 60, 100, 20))),
		static("After", at(0, 500, 100, 20)),
	))
	root := -1
	for i := range w.Nodes {
		if w.Nodes[i].Role == model.RoleWebArea {
			root = i
		}
	}
	text, lines, _, _ := Assemble(w, root, 0)
	expectText(t, text, "Inside\nBody")
	if lines != 2 {
		t.Errorf("lines = %d, want 2", lines)
	}
	if text, _, _, _ := Assemble(w, len(w.Nodes), 0); text != "" {
		t.Errorf("a root outside the walk read %q", text)
	}
}

func TestAssembleTextLimitCutsOnRuneBoundary(t *testing.T) {
	w := walkOf(window(static("aaa😀b", at(0, 0, 100, 20)), static("next", at(0, 30, 100, 20))))
	// The emoji takes bytes 3 to 6: a limit of 5 falls inside it.
	text, lines, cut, omitted := Assemble(w, 0, 5)
	if text != "aaa" || lines != 1 || !cut || omitted != 2 || !utf8.ValidString(text) {
		t.Errorf("got %q lines %d truncated %v omitted %d, want \"aaa\" 1 true 2", text, lines, cut, omitted)
	}
	for limit := 1; limit <= len("aaa😀b\nnext"); limit++ {
		text, _, _, _ := Assemble(w, 0, limit)
		if len(text) > limit || !utf8.ValidString(text) {
			t.Errorf("limit %d gave %d bytes, valid %v: %q", limit, len(text), utf8.ValidString(text), text)
		}
	}
}

func TestAssembleTextLimitCountsOmittedPieces(t *testing.T) {
	w := walkOf(window(
		static("one", at(0, 0, 100, 20)), static("two", at(0, 30, 100, 20)),
		el(model.RoleToolbar, "", at(0, 60, 300, 20), el(model.RoleButton, "three", at(0, 60, 50, 20)), el(model.RoleButton, "four", at(60, 60, 50, 20))),
	))
	for _, c := range []struct {
		limit   int
		text    string
		omitted int
	}{
		{7, "one\ntwo", 2},         // the limit ends exactly after a line
		{8, "one\ntwo", 2},         // room for the newline alone
		{12, "one\ntwo\nthre", 2},  // a piece cut in the middle counts as left out
		{14, "one\ntwo\nthree", 1}, // the trailing space of a cut line is trimmed
		{17, "one\ntwo\nthree fou", 1},
		{1 << 10, "one\ntwo\nthree four", 0},
	} {
		text, _, cut, omitted := Assemble(w, 0, c.limit)
		if text != c.text || omitted != c.omitted || cut != (c.omitted > 0) {
			t.Errorf("limit %d: got %q omitted %d truncated %v, want %q omitted %d", c.limit, text, omitted, cut, c.text, c.omitted)
		}
	}
}

func TestAssembleTextDefaultLimit(t *testing.T) {
	long := strings.Repeat("ü", MaxReadBytes) // twice the limit in bytes
	text, _, cut, omitted := Assemble(walkOf(window(static(long, at(0, 0, 100, 20)))), 0, 0)
	if len(text) != MaxReadBytes || !cut || omitted != 1 || !utf8.ValidString(text) {
		t.Errorf("default limit: %d bytes, truncated %v, omitted %d", len(text), cut, omitted)
	}
}

func TestAssembleTextWebTextRunsAreReadOnce(t *testing.T) {
	// Chromium: the paragraph's text holds the runs inline and U+FFFC for the link, and the runs
	// are its children too (static text) beside the link.
	para := texted(el(model.RoleParagraph, "", at(0, 0, 400, 20),
		static("First paragraph with a ", at(0, 0, 150, 20)),
		el(model.RoleLink, "link", at(150, 0, 30, 20), static("link", at(150, 0, 30, 20))),
		static(" inside.", at(180, 0, 50, 20)),
	), "First paragraph with a \uFFFC inside.")
	// A labelled field: the label's text, the field named after it, in one paragraph.
	row := texted(el(model.RoleParagraph, "", at(0, 30, 400, 20),
		texted(el(model.RoleLabel, "", at(0, 30, 40, 20), static("Name", at(0, 30, 40, 20))), "Name"),
		field(model.RoleTextField, "Name", "Ann", at(50, 30, 100, 20)),
	), "\uFFFC\uFFFC")
	// A <select>: no value, its options in a menu below it, the chosen one selected.
	chosen := el(model.RoleMenuItem, "Green", at(0, 60, 60, 10))
	chosen.States |= model.StateSelected
	sel := texted(el(model.RoleParagraph, "", at(0, 60, 400, 20),
		texted(el(model.RoleLabel, "", at(0, 60, 40, 20), static("Colour", at(0, 60, 40, 20))), "Colour"),
		texted(el(model.RoleComboBox, "Colour", at(50, 60, 60, 20),
			el(model.RoleMenu, "", at(50, 60, 60, 10), el(model.RoleMenuItem, "Red", at(50, 60, 60, 10)), chosen)), "\uFFFC"),
	), "\uFFFC\uFFFC")
	got := assemble(t, window(para, row, sel))
	expectText(t, got, "First paragraph with a link inside.\nName Ann\nColour Green")
}
