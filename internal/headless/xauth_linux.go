//go:build linux

package headless

import (
	"fmt"
	"path/filepath"

	"github.com/axbus/axbus/internal/xauth"
)

// xauthorityFile is the name of the session's Xauthority file in its dir.
const xauthorityFile = "Xauthority"

// makeXAuthority writes DIR/Xauthority (mode 0600) with a fresh random MIT-MAGIC-COOKIE-1 for any display. Xvfb,
// started with -auth on it, refuses every client that does not present the cookie (another local user's
// xdotool, say); the session's programs find it through XAUTHORITY, axbus's backend through Session.XAuthority.
// The entry names no display because Xvfb picks its number (-displayfd) after reading the file.
func (s *Session) makeXAuthority() error {
	cookie, err := xauth.NewCookie()
	if err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	path := filepath.Join(s.Dir, xauthorityFile)
	if err := xauth.Write(path, xauth.WildcardEntry(cookie)); err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	s.XAuthority = path
	return nil
}
