package sim

import (
	"context"
	"slices"
	"testing"

	"github.com/axbus/axbus/model"
)

// HitPath follows the same hit-testing as a click: from the window down to the button at its
// centre, and away from it once another window covers the point.
func TestHitPathFindsAndLosesCoveredButton(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	win, save := d.Ref(notesPID, "main"), d.Ref(notesPID, "save")
	const x, y = 110 + 32, 84 + 14 // Save's centre
	path, err := d.HitPath(ctx, win, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) < 2 || path[0] != win || path[len(path)-1] != save {
		t.Fatalf("path at Save = %v, want %s ... %s", path, win, save)
	}
	if path, err := d.HitPath(ctx, win, 5, 5); err != nil || len(path) != 0 {
		t.Fatalf("path outside every window = %v, %v", path, err)
	}

	if err := d.AddNode(notesPID, "", NodeSpec{ID: "palette", Role: "AXWindow", Title: "Palette", Frame: []float64{100, 60, 200, 100}}); err != nil {
		t.Fatal(err)
	}
	path, err = d.HitPath(ctx, win, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(path, save) || len(path) == 0 || path[0] != d.Ref(notesPID, "palette") {
		t.Fatalf("path under the palette = %v, want the palette's without Save", path)
	}

	if _, err := d.HitPath(ctx, "999.1/main", x, y); model.CodeOf(err) != model.CodeAppNotFound {
		t.Fatalf("unknown pid: %v", err)
	}
	if _, err := d.HitPath(ctx, "nonsense", x, y); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("bad handle: %v", err)
	}
}
