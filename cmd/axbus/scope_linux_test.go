package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
)

// TestDesktopVisibleRowsAndScope: on the GTK3 fixture, an unscoped inspection lists only the
// rows of the 400-row list that are on screen, counting the others, and a scoped inspection of
// the list reaches row 350.
func TestDesktopVisibleRowsAndScope(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3)
	insp := dd.inspect(t, headless.KindGTK3)
	rows := 0
	for _, e := range insp.Elements {
		if strings.HasPrefix(e.Name, "Row ") && e.Role == model.RoleLabel {
			rows++
		}
	}
	if rows == 0 || rows > 20 || insp.OffscreenOmitted == 0 {
		t.Fatalf("unscoped: %d rows listed, %d off-screen omitted", rows, insp.OffscreenOmitted)
	}
	list := find(insp, model.RoleList, "Rows")
	if list == nil {
		t.Fatal("the Rows list is not listed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	scoped, err := dd.client.Inspect(ctx, api.InspectRequest{Scope: insp.SnapshotID + ":" + list.ID})
	if err != nil {
		t.Fatal(err)
	}
	if scoped.Scope == nil || scoped.Elements[0].ID != scoped.Scope.Element {
		t.Fatalf("scope %+v", scoped.Scope)
	}
	if find(scoped, model.RoleLabel, "Row 350") == nil || find(scoped, model.RoleLabel, "Row 400") == nil {
		t.Fatalf("the scoped listing of %d elements lacks row 350 or 400", len(scoped.Elements))
	}
	// the CLI says the same
	out, errOut, code := dd.cli(t, "inspect", "--scope", insp.SnapshotID+":"+list.ID)
	if code != 0 || !strings.Contains(out, `"Row 350"`) {
		t.Fatalf("axbus inspect --scope: exit %d %s", code, errOut)
	}
}
