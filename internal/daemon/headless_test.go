package daemon

import (
	"log/slog"
	"testing"

	"github.com/axbus/axbus/model"
)

// TestSimNeedsNoDesktop: the simulated desktop never brings up a headless desktop, so `make run
// ARGS='--backend sim'` starts no X server; asking for one with it is refused.
func TestSimNeedsNoDesktop(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	cfg := Config{Backend: "sim", Headless: "auto", Log: slog.New(slog.DiscardHandler)}
	if h, err := StartHeadless(&cfg, t.TempDir()); h != nil || err != nil {
		t.Fatalf("--backend sim --headless auto: %v, %v", h, err)
	}
	cfg.Headless = "always"
	if _, err := StartHeadless(&cfg, t.TempDir()); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("--backend sim --headless always: %v", err)
	}
}
