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
