//go:build linux

package x11

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/headless"
)

func openClipboard(t *testing.T, s *headless.Session) *Clipboard {
	t.Helper()
	cc, err := OpenClipboard(s.Display, s.XAuthority)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cc.Close)
	return cc
}

// Text written on one connection is read on another as any app would (asked of its owner, as
// UTF-8); its writer reads it from memory, learns when it is taken, and can leave the clipboard
// empty. A closed clipboard says so.
func TestClipboardBetweenTwoConnections(t *testing.T) {
	s := desktop(t)
	mine, theirs := openClipboard(t, s), openClipboard(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	if _, ok, err := theirs.Read(ctx); err != nil || ok {
		t.Fatalf("a clipboard nobody wrote reads %v %v, want nothing", ok, err)
	}
	const text = "Grüße, ✓ and\nlines"
	taken, err := mine.Write(ctx, text, true)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := mine.Read(ctx); err != nil || !ok || got != text {
		t.Errorf("the writer reads %q %v %v", got, ok, err)
	}
	armed := taken()
	if got, ok, err := theirs.Read(ctx); err != nil || !ok || got != text {
		t.Errorf("another connection reads %q %v %v, want %q", got, ok, err, text)
	}
	select {
	case <-armed:
	case <-time.After(2 * time.Second):
		t.Error("the text was read but not told taken")
	}

	if _, err := mine.Write(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := theirs.Read(ctx); err != nil || ok {
		t.Errorf("an emptied clipboard reads %q %v %v", got, ok, err)
	}

	mine.Close()
	if _, _, err := mine.Read(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("a closed clipboard reads: %v, want ErrClosed", err)
	}
}
