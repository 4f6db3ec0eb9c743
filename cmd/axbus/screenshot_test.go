package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
)

// TestScreenshotTravelsWhole: a full-size screenshot of the simulated display (noise, which does
// not compress) is a PNG of more than 5 MB, sent in parts after the reply and written whole: its
// SHA-256 is the reply's, and its pixels are those a screenshot of one pixel's region shows. By
// default the image is scaled to at most 1920 px and 2 MiB. Its parts are the taker's alone.
func TestScreenshotTravelsWhole(t *testing.T) {
	d := startTestDaemon(t)
	dir := t.TempDir()
	shot := func(args ...string) (screenshotResult, []byte) {
		t.Helper()
		file := filepath.Join(dir, "shot.png")
		out, errOut, code := d.cli(t, append([]string{"screenshot", "-o", file, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("screenshot %v: exit %d %s%s", args, code, out, errOut)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return testdaemon.Decode[screenshotResult](t, out), b
	}
	r, b := shot("--full", "--max-bytes", "16777216")
	sum := sha256.Sum256(b)
	if len(b) < 5<<20 || len(b) != r.Bytes || hex.EncodeToString(sum[:]) != r.SHA256 || r.Parts < 10 {
		t.Fatalf("a %d-byte file in %d parts; the reply says %d bytes, %s", len(b), r.Parts, r.Bytes, r.SHA256)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || img.Bounds().Dx() != 2560 || img.Bounds().Dy() != 1600 || r.Scale != 1 {
		t.Fatalf("the full-size screenshot: %v %v at scale %v", err, img.Bounds(), r.Scale)
	}
	t.Logf("%d bytes in %d parts", len(b), r.Parts)
	for _, p := range []model.Rect{{X: 0, Y: 0}, {X: 1777, Y: 901}, {X: 2559, Y: 1599}} {
		pr, pb := shot("--region", rectArg(p.X, p.Y, 1, 1))
		px, err := png.Decode(bytes.NewReader(pb))
		if err != nil || pr.Width != 1 {
			t.Fatalf("one pixel's region: %v %+v", err, pr)
		}
		if px.At(0, 0) != img.At(int(p.X), int(p.Y)) {
			t.Fatalf("pixel (%v, %v): %v in the whole, %v alone", p.X, p.Y, img.At(int(p.X), int(p.Y)), px.At(0, 0))
		}
	}

	// The parts are the taker's alone: another identity asking for them by id gets none.
	alice, bob := testdaemon.NewLeaseAgent(t, d.Daemon, "alice", "agent"), testdaemon.NewLeaseAgent(t, d.Daemon, "bob", "agent")
	ctx := context.Background()
	ar, _, err := alice.Client.Screenshot(ctx, api.ScreenshotRequest{Region: &model.Rect{W: 100, H: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var raw json.RawMessage
	if err := bob.Client.Call(ctx, "screenshot_part", api.ScreenshotPartRequest{ID: ar.ID}, &raw); model.CodeOf(err) != model.CodePermissionDenied {
		t.Fatalf("bob fetched alice's screenshot: %v (%d bytes)", err, len(raw))
	}

	r, b = shot()
	if len(b) > 2<<20 || r.Width > 1920 || r.Scale >= 1 || r.Width != int(2560*r.Scale+0.5) {
		t.Fatalf("the default screenshot: %d bytes, %dx%d at scale %v", len(b), r.Width, r.Height, r.Scale)
	}
}

func rectArg(x, y, w, h float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64) + "," + strconv.FormatFloat(y, 'f', -1, 64) + "," +
		strconv.FormatFloat(w, 'f', -1, 64) + "," + strconv.FormatFloat(h, 'f', -1, 64)
}
