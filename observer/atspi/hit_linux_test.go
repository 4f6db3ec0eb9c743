//go:build linux

package atspi

import (
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
)

// HitPath at the Save button's centre descends from the window through Save, one level at a
// time (GTK3 in screen coordinates, GTK4 in window coordinates); beyond the window's corner Save is not on the path.
func TestHitPathFindsSave(t *testing.T) {
	s := session(t)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			a := startApp(t, s, kind)
			b := open(t, s)
			win := mainWindow(t, b, a)
			save := find(t, walk(t, b, win.Ref), model.RoleButton, "Save")
			if save.Bounds == nil || win.Bounds == nil {
				t.Fatalf("no bounds: Save %+v, window %+v", save.Bounds, win.Bounds)
			}
			x, y := save.Bounds.Center()
			path, err := b.HitPath(testkit.Context(t, 10*time.Second), win.Ref, x, y)
			if err != nil {
				t.Fatal(err)
			}
			if len(path) == 0 || path[0] != win.Ref || !slices.Contains(path, save.Ref) {
				t.Fatalf("path at Save's centre (%v, %v) = %v, want %s first and %s on it", x, y, path, win.Ref, save.Ref)
			}
			// Each element is its predecessor's child: GTK 4.8 answers with the deepest widget at
			// once, and the levels it skips are filled in.
			for i, n := range b.Read(testkit.Context(t, 10*time.Second), path[1:]) {
				if n.Err != nil || n.Parent != path[i] {
					t.Errorf("path[%d] %s: parent %s, err %v; want parent %s", i+1, path[i+1], n.Parent, n.Err, path[i])
				}
			}
			ox, oy := win.Bounds.X+win.Bounds.W+20, win.Bounds.Y+win.Bounds.H+20
			path, err = b.HitPath(testkit.Context(t, 10*time.Second), win.Ref, ox, oy)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(path, save.Ref) {
				t.Fatalf("path outside the window (%v, %v) = %v holds Save", ox, oy, path)
			}
			if _, err := b.HitPath(testkit.Context(t, 5*time.Second), "nonsense", x, y); model.CodeOf(err) != model.CodeStaleRef {
				t.Errorf("HitPath(bad handle): %v", err)
			}
		})
	}
}
