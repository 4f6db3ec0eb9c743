//go:build linux

package atspi

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/internal/xauth"
	"github.com/axbus/axbus/observer"
)

// The X connection of physical input presents the cookie of the file WithXAuthority names, whatever this
// process's XAUTHORITY says; the session's X server refuses it any other cookie (or none), and Input says so.
func TestPhysicalInputPresentsTheXAuthorityCookie(t *testing.T) {
	s := session(t)
	t.Setenv("XAUTHORITY", "/dev/null") // the process-wide default holds no cookie
	if _, err := open(t, s).xconn(); err != nil {
		t.Fatalf("X connection with the session's Xauthority: %v", err)
	}

	wrong := filepath.Join(t.TempDir(), "Xauthority")
	if err := xauth.Write(wrong, xauth.WildcardEntry(bytes.Repeat([]byte{7}, xauth.CookieLen))); err != nil {
		t.Fatal(err)
	}
	for what, opt := range map[string]Option{"a wrong cookie": WithXAuthority(wrong), "no cookie": WithXAuthority("")} {
		b := open(t, s, opt)
		err := b.Input(testkit.Context(t, 5*time.Second), observer.Input{Kind: observer.InputClick, X: 1, Y: 1})
		if e := model.AsError(err); e == nil || e.Code != model.CodeUnavailable ||
			!strings.Contains(e.Message, "refused") || !strings.Contains(e.Suggestion, "XAUTHORITY") {
			t.Errorf("Input with %s: %v, want UNAVAILABLE: refused, with a suggestion naming XAUTHORITY", what, err)
		}
	}
}
