// Package xauth reads and writes Xauthority files, the format of libXau that xauth(1), Xlib and xcb share, and
// connects to an X server with the MIT-MAGIC-COOKIE-1 of such a file whatever $XAUTHORITY says, so that one
// process can talk to several X servers, each with its own file (tests run several headless desktops at once).
//
// A file is a sequence of entries, each: family (uint16, big-endian), then address, display number, protocol name
// and protocol data, each a big-endian uint16 length followed by that many bytes.
package xauth

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// MagicCookie is the authorization protocol written and read here: a shared secret of CookieLen random bytes.
const MagicCookie = "MIT-MAGIC-COOKIE-1"

// CookieLen is the length of a MIT-MAGIC-COOKIE-1.
const CookieLen = 16

// The address families of entries that match local connections (/usr/include/X11/Xauth.h).
const (
	familyLocal = 256   // a Unix-socket connection from the host named by the address
	familyWild  = 65535 // any address
)

// Entry is one record of an Xauthority file.
type Entry struct {
	Family  uint16
	Address string // for familyLocal, the host name
	Number  string // the display number ("0" for ":0"); "" matches every display
	Name    string // the authorization protocol
	Data    []byte // the secret
}

// NewCookie returns a fresh random MIT-MAGIC-COOKIE-1.
func NewCookie() ([]byte, error) {
	c := make([]byte, CookieLen)
	if _, err := rand.Read(c); err != nil {
		return nil, fmt.Errorf("xauth: no random cookie: %w", err)
	}
	return c, nil
}

// WildcardEntry is the entry that gives cookie to a client of any display on any address: what an X server
// started with -auth FILE before its display number is known reads (the server ignores address and number; it
// takes every cookie of the file).
func WildcardEntry(cookie []byte) Entry {
	return Entry{Family: familyWild, Name: MagicCookie, Data: cookie}
}

// Write writes the entries to path, mode 0600 (a file that exists is truncated and made 0600 first).
func Write(path string, entries ...Entry) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("xauth: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return fmt.Errorf("xauth: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, e := range entries {
		_ = binary.Write(w, binary.BigEndian, e.Family)
		for _, field := range [][]byte{[]byte(e.Address), []byte(e.Number), []byte(e.Name), e.Data} {
			if len(field) > 0xffff {
				_ = f.Close()
				return fmt.Errorf("xauth: an entry field of %d bytes does not fit the format (at most 65535)", len(field))
			}
			_ = binary.Write(w, binary.BigEndian, uint16(len(field)))
			_, _ = w.Write(field)
		}
	}
	if err := w.Flush(); err != nil {
		_ = f.Close()
		return fmt.Errorf("xauth: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("xauth: write %s: %w", path, err)
	}
	return nil
}

// Read reads every entry of the file at path.
func Read(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("xauth: %w", err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var out []Entry
	for {
		var e Entry
		if err := binary.Read(r, binary.BigEndian, &e.Family); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("xauth: %s: entry %d: %w", path, len(out)+1, err)
		}
		var fields [4][]byte
		for i := range fields {
			var n uint16
			err := binary.Read(r, binary.BigEndian, &n)
			if err == nil {
				fields[i] = make([]byte, n)
				_, err = io.ReadFull(r, fields[i])
			}
			if err != nil {
				return nil, fmt.Errorf("xauth: %s: entry %d is cut short (not an Xauthority file?): %w", path, len(out)+1, err)
			}
		}
		e.Address, e.Number, e.Name, e.Data = string(fields[0]), string(fields[1]), string(fields[2]), fields[3]
		out = append(out, e)
	}
}

// Cookie returns the MIT-MAGIC-COOKIE-1 that the file at path holds for a local connection to display number
// (e.g. "0" for ":0"): the first entry for this host (or any address) and this display (or every display), as
// libXau chooses.
func Cookie(path, number string) ([]byte, error) {
	entries, err := Read(path)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	for _, e := range entries {
		if (e.Family == familyWild || e.Family == familyLocal && e.Address == host) &&
			(e.Number == "" || e.Number == number) && e.Name == MagicCookie && len(e.Data) == CookieLen {
			return e.Data, nil
		}
	}
	return nil, fmt.Errorf("xauth: %s holds no %s for display :%s of this host (%q): add one with xauth -f %s add :%s . <32 hex digits>",
		path, MagicCookie, number, host, path, number)
}
