//go:build linux

package headless

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/godbus/dbus/v5"
)

// AT-SPI numeric roles (atspi-constants.h) the fixtures use.
const (
	roleCheckBox     = 7
	roleDialog       = 16
	roleFiller       = 20
	roleFrame        = 23
	roleLabel        = 29
	roleList         = 31
	rolePanel        = 39
	rolePasswordText = 40
	rolePushButton   = 43
	roleSlider       = 51
	roleTable        = 55
	roleTableCell    = 56
	roleText         = 61
	roleTreeTable    = 66
	roleListBox      = 98
)

type node struct {
	role     uint32
	roleName string // GetRoleName over D-Bus
	name     string
	children int32
	depth    int
	obj      dbus.BusObject
}

func (n node) String() string {
	return fmt.Sprintf("%s[%d %s] %q children=%d", strings.Repeat("  ", n.depth), n.role, n.roleName, n.name, n.children)
}

// walkTree reads the accessible tree under path sequentially, reading only the first two rows of "Rows".
func walkTree(ctx context.Context, conn *dbus.Conn, bus string, path dbus.ObjectPath, depth int, out *[]node) error {
	obj := conn.Object(bus, path)
	n := node{depth: depth, obj: obj}
	if err := obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetRole", 0).Store(&n.role); err != nil {
		return fmt.Errorf("%s: GetRole: %w", path, err)
	}
	if err := obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetRoleName", 0).Store(&n.roleName); err != nil {
		return fmt.Errorf("%s: GetRoleName: %w", path, err)
	}
	if v, err := obj.GetProperty("org.a11y.atspi.Accessible.Name"); err == nil {
		n.name, _ = v.Value().(string)
	}
	if v, err := obj.GetProperty("org.a11y.atspi.Accessible.ChildCount"); err == nil {
		n.children, _ = v.Value().(int32)
	}
	*out = append(*out, n)
	var refs []accRef
	if err := obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&refs); err != nil {
		return fmt.Errorf("%s: GetChildren: %w", path, err)
	}
	// An embedding socket (WebKitGTK's web view) counts its plug as a child, on another bus name, but
	// GetChildren leaves it out: GetChildAtIndex reaches it.
	if len(refs) == 0 {
		for i := range n.children {
			var r accRef
			if err := obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildAtIndex", 0, i).Store(&r); err != nil {
				return fmt.Errorf("%s: GetChildAtIndex(%d): %w", path, i, err)
			}
			if r.Path != "/org/a11y/atspi/null" {
				refs = append(refs, r)
			}
		}
	}
	if (n.role == roleList || n.role == roleListBox) && n.name == "Rows" {
		refs = refs[:min(2, len(refs))]
	}
	for _, r := range refs {
		if err := walkTree(ctx, conn, r.Name, r.Path, depth+1, out); err != nil {
			return err
		}
	}
	return nil
}

func find(nodes []node, role uint32, name string) (node, bool) {
	for _, n := range nodes {
		if n.role == role && n.name == name {
			return n, true
		}
	}
	return node{}, false
}

// subtree is the part of nodes under nodes[i] (pre-order), the node itself included.
func subtree(nodes []node, of node) []node {
	for i, n := range nodes {
		if n.obj == of.obj {
			j := i + 1
			for j < len(nodes) && nodes[j].depth > n.depth {
				j++
			}
			return nodes[i:j]
		}
	}
	return nil
}

// TestAccessibleTree checks what AT-SPI exposes of each fixture: the roles and names the backend and the
// end-to-end tests rely on.
func TestAccessibleTree(t *testing.T) {
	s := startSession(t)
	for _, kind := range []string{KindGTK3, KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			app, err := s.StartApp(testkit.Context(t, 15*time.Second), kind, "AXBUS_FIXTURE_SAVE_DELAY_MS=50")
			if err != nil {
				t.Fatal(err)
			}
			ctx := testkit.Context(t, 10*time.Second)
			bus, err := s.WaitRegistered(ctx, app.PID, true)
			if err != nil {
				t.Fatal(err)
			}
			var nodes []node
			t0 := time.Now()
			if err := walkTree(ctx, s.aconn, bus, registryRoot, 0, &nodes); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d nodes in %v", len(nodes), time.Since(t0).Round(time.Millisecond))
			if testing.Verbose() {
				for _, n := range nodes {
					t.Log(n)
				}
			}
			if root := nodes[0]; root.name != AppName(kind) {
				t.Errorf("application name %q, want %q", root.name, AppName(kind))
			}
			listRole, tableRole, panelRole := uint32(roleListBox), uint32(roleTable), uint32(roleFiller)
			if kind == KindGTK4 {
				listRole, tableRole, panelRole = roleList, roleTreeTable, rolePanel
			}
			for _, w := range []struct {
				role uint32
				name string
			}{
				{roleFrame, WindowTitle(kind)}, {rolePushButton, "Save"}, {roleText, "Name"},
				{rolePasswordText, "Password"}, {roleCheckBox, "Remember me"}, {roleSlider, "Volume"},
				{listRole, "Rows"}, {tableRole, "Items"}, {roleText, "Long text"}, {roleLabel, "Status"},
				{panelRole, "Messages"},
			} {
				if _, ok := find(nodes, w.role, w.name); !ok {
					t.Errorf("no element role %d named %q", w.role, w.name)
				}
			}
			if rows, ok := find(nodes, listRole, "Rows"); ok {
				if kind == KindGTK3 && rows.children != FixtureRows {
					t.Errorf("GTK3 list has %d children, want %d", rows.children, FixtureRows)
				}
				if kind == KindGTK4 && (rows.children < 13 || rows.children >= FixtureRows) {
					t.Errorf("GTK4 list view has %d children, want its realised rows only", rows.children)
				}
				t.Logf("Rows: %d children", rows.children)
			}
			if table, ok := find(nodes, tableRole, "Items"); ok {
				var texts []string
				for _, n := range subtree(nodes, table) {
					texts = append(texts, n.name)
				}
				all := strings.Join(texts, "|")
				for _, cell := range []string{"Item", "Qty", "Price", "Apples", "3", "1.20", "Milk", "0.99"} {
					if !strings.Contains("|"+all+"|", "|"+cell+"|") {
						t.Errorf("table: no element named %q in %s", cell, all)
					}
				}
			}
			if slider, ok := find(nodes, roleSlider, "Volume"); ok {
				if v, err := slider.obj.GetProperty("org.a11y.atspi.Value.CurrentValue"); err != nil || v.Value() != 25.0 {
					t.Errorf("Volume value %v %v, want 25", v, err)
				}
			}
			if pw, ok := find(nodes, rolePasswordText, "Password"); ok {
				var n int32
				var text string
				if v, err := pw.obj.GetProperty("org.a11y.atspi.Text.CharacterCount"); err == nil {
					n, _ = v.Value().(int32)
				}
				_ = pw.obj.CallWithContext(ctx, "org.a11y.atspi.Text.GetText", 0, int32(0), n).Store(&text)
				leaks := text == FixturePassword
				t.Logf("password field: role name %q, %d characters, its text is the password: %v", pw.roleName, n, leaks)
				if kind == KindGTK3 && leaks {
					t.Error("GTK3 password field gives out its text")
				}
			}

			// What the control commands change, AT-SPI reads back (by polling: GTK 4 sends no event for most).
			followControl(ctx, t, app, nodes)

			// Save activated over AT-SPI: the Saved dialog, a new top-level window of the app.
			save, _ := find(nodes, rolePushButton, "Save")
			doAction(ctx, t, save)
			var dialog []node
			testkit.Eventually(t, 5*time.Second, "the Saved dialog in the tree", func() bool {
				nodes = nodes[:0]
				if err := walkTree(ctx, s.aconn, bus, registryRoot, 0, &nodes); err != nil {
					t.Fatal(err)
				}
				d, ok := find(nodes, roleDialog, "Saved")
				if ok {
					dialog = subtree(nodes, d)
				}
				return ok
			})
			if dialog[0].depth != 1 {
				t.Errorf("dialog at depth %d, want a child of the application", dialog[0].depth)
			}
			if _, ok := find(dialog, roleLabel, "Your changes were saved."); !ok {
				t.Errorf("dialog without its text: %v", dialog)
			}
			if _, ok := find(dialog, rolePushButton, "OK"); !ok {
				t.Errorf("dialog without OK: %v", dialog)
			}
			if _, ok := find(nodes, roleLabel, "Saved"); !ok {
				t.Error("no Saved label in the tree")
			}
			if testing.Verbose() {
				for _, n := range dialog {
					t.Log(n)
				}
			}

			// OK activated over AT-SPI closes it.
			ok, _ := find(dialog, rolePushButton, "OK")
			doAction(ctx, t, ok)
			testkit.Eventually(t, 5*time.Second, "the dialog closed by OK pressed over AT-SPI", func() bool {
				st, err := app.State(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return !st.DialogOpen
			})
			testkit.Eventually(t, 5*time.Second, "the closed dialog gone from the tree", func() bool {
				nodes = nodes[:0]
				if err := walkTree(ctx, s.aconn, bus, registryRoot, 0, &nodes); err != nil {
					t.Fatal(err)
				}
				_, ok := find(nodes, roleDialog, "Saved")
				return !ok
			})
		})
	}
}

// doAction runs an element's first action ("click") over AT-SPI.
func doAction(ctx context.Context, t *testing.T, n node) {
	t.Helper()
	if n.obj == nil {
		t.Fatal("doAction: no element")
	}
	var done bool
	if err := n.obj.CallWithContext(ctx, "org.a11y.atspi.Action.DoAction", 0, int32(0)).Store(&done); err != nil || !done {
		t.Fatalf("DoAction on %q: %v %v", n.name, done, err)
	}
}

// followControl changes the app over its control socket and polls AT-SPI until it shows each change.
func followControl(ctx context.Context, t *testing.T, app *App, nodes []node) {
	t.Helper()
	get := func(n node, iface, prop string) any {
		v, err := n.obj.GetProperty("org.a11y.atspi." + iface + "." + prop)
		if err != nil {
			return err
		}
		return v.Value()
	}
	text := func(n node) any {
		count, _ := get(n, "Text", "CharacterCount").(int32)
		var s string
		if err := n.obj.CallWithContext(ctx, "org.a11y.atspi.Text.GetText", 0, int32(0), count).Store(&s); err != nil {
			return err
		}
		return s
	}
	checked := func(n node) any {
		var st []uint32
		if err := n.obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetState", 0).Store(&st); err != nil {
			return err
		}
		return len(st) > 0 && st[0]&(1<<4) != 0 // ATSPI_STATE_CHECKED
	}
	el := func(role uint32, name string) node {
		n, ok := find(nodes, role, name)
		if !ok {
			t.Fatalf("no element role %d %q", role, name)
		}
		return n
	}
	panelRole := uint32(roleFiller)
	if app.Kind == KindGTK4 {
		panelRole = rolePanel
	}
	messages := el(panelRole, "Messages")
	for _, c := range []struct {
		req  map[string]any // nil: no change, just a check
		read func() any
		want any
	}{
		{map[string]any{"cmd": "set_text", "text": "abc"}, func() any { return text(el(roleText, "Name")) }, "abc"},
		{map[string]any{"cmd": "toggle"}, func() any { return checked(el(roleCheckBox, "Remember me")) }, true},
		{map[string]any{"cmd": "set_value", "value": 60}, func() any { return get(el(roleSlider, "Volume"), "Value", "CurrentValue") }, 60.0},
		{map[string]any{"cmd": "set_status", "text": "Busy"}, func() any { return text(el(roleLabel, "Status")) }, "Busy"},
		{nil, func() any { return get(el(roleLabel, "Status"), "Accessible", "Name") }, "Status"}, // and its name stays
		{map[string]any{"cmd": "add_label", "text": "Hello"}, func() any { return get(messages, "Accessible", "ChildCount") }, int32(1)},
	} {
		changed := time.Now()
		if c.req != nil {
			r, err := app.Do(ctx, c.req)
			if err != nil {
				t.Fatal(err)
			}
			changed = time.Unix(0, r["t_ns"].(int64))
		}
		var got any
		if !testkit.Within(3*time.Second, func() bool { got = c.read(); return got == c.want }) {
			t.Errorf("after %v: AT-SPI reads %v, want %v", c.req, got, c.want)
		} else if c.req != nil {
			t.Logf("%v: AT-SPI shows it %v later", c.req["cmd"], time.Since(changed).Round(time.Millisecond))
		}
	}
}
