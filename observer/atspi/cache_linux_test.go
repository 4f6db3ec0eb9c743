package atspi

import "testing"

func TestRefCache(t *testing.T) {
	c := newRefCache()
	a := MakeRef(":1.5", "/a")
	c.update(a, func(ri *refInfo) { ri.role, ri.haveRole = 40, true })
	c.update(MakeRef(":1.6", "/b"), func(ri *refInfo) { ri.secure = true })
	if ri, ok := c.get(a); !ok || ri.role != 40 {
		t.Fatal("get")
	}
	c.dropApp(":1.5")
	if _, ok := c.get(a); ok || c.len() != 1 {
		t.Fatalf("dropApp left %d entries", c.len())
	}
	c.forget(MakeRef(":1.6", "/b"))
	if c.len() != 0 {
		t.Fatal("forget")
	}
}

func TestApplyText(t *testing.T) {
	kept := func(text string) refInfo {
		return refInfo{text: text, textCount: int32(len([]rune(text))), haveText: true}
	}
	for _, c := range []struct {
		name, text, op string
		start, length  int
		s              string
		want           string
		keeps          bool
	}{
		{"insert at the end", "héllo", "insert", 5, 6, " world", "héllo world", true},
		{"insert inside", "ac", "insert", 1, 1, "b", "abc", true},
		{"delete all", "hello", "delete", 0, 5, "hello", "", true},
		{"delete inside", "héllo", "delete", 1, 2, "él", "hlo", true},
		{"delete of text not there", "hello", "delete", 0, 2, "xy", "", false},
		{"delete past the end", "hi", "delete", 1, 5, "i....", "", false},
		{"insert past the end", "hi", "insert", 3, 1, "x", "", false},
		{"length not the string's", "hi", "insert", 0, 3, "x", "", false},
		{"past the BMP", "hi", "insert", 0, 1, "😀", "", false},
		{"unknown op", "hi", "replace", 0, 1, "x", "", false},
	} {
		ri := kept(c.text)
		ri.applyText(c.op, c.start, c.length, c.s)
		if ri.haveText != c.keeps || ri.haveText && (ri.text != c.want || int(ri.textCount) != len([]rune(c.want))) {
			t.Errorf("%s: kept %v %q (%d), want %v %q", c.name, ri.haveText, ri.text, ri.textCount, c.keeps, c.want)
		}
	}
	cut := refInfo{text: "abc", textCount: 10, haveText: true} // cut at maxTextChars: offsets cannot be trusted
	cut.applyText("insert", 0, 1, "x")
	if cut.haveText {
		t.Error("a text cut short was kept through an insert")
	}
	none := refInfo{}
	none.applyText("insert", 0, 1, "x")
	if none.haveText {
		t.Error("a text never read was made up from an insert")
	}
}
