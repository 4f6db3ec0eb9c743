package xauth

import (
	"bytes"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestWriteRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Xauthority")
	if err := os.WriteFile(path, []byte("old, world-readable"), 0o644); err != nil {
		t.Fatal(err)
	}
	cookie, err := NewCookie()
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		WildcardEntry(cookie),
		{Family: familyLocal, Address: "somehost", Number: "12", Name: "XDM-AUTHORIZATION-1", Data: []byte{1, 2, 3}},
	}
	if err := Write(path, want...); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v %v, want mode 0600", path, fi.Mode(), err)
	}
	got, err := Read(path)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Read: %+v %v, want %+v", got, err, want)
	}
	if err := os.WriteFile(path, []byte{0xff, 0xff, 0, 9, 'x'}, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("Read of a truncated file: %v", err)
	}
}

func TestCookieChoosesAsLibXau(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "Xauthority")
	cookie := func(b byte) []byte { return bytes.Repeat([]byte{b}, CookieLen) }
	if err := Write(path,
		Entry{Family: familyLocal, Address: "another-host", Number: "3", Name: MagicCookie, Data: cookie(1)},
		Entry{Family: familyLocal, Address: host, Number: "4", Name: MagicCookie, Data: cookie(2)},
		Entry{Family: familyLocal, Address: host, Number: "3", Name: "XDM-AUTHORIZATION-1", Data: cookie(3)},
		Entry{Family: familyLocal, Address: host, Number: "3", Name: MagicCookie, Data: cookie(4)},
		WildcardEntry(cookie(5)),
	); err != nil {
		t.Fatal(err)
	}
	for number, want := range map[string]byte{"3": 4, "4": 2, "9": 5} {
		if got, err := Cookie(path, number); err != nil || !bytes.Equal(got, cookie(want)) {
			t.Errorf("Cookie(:%s) = %x %v, want %x", number, got, err, cookie(want))
		}
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := Write(empty); err != nil {
		t.Fatal(err)
	}
	if _, err := Cookie(empty, "3"); err == nil || !strings.Contains(err.Error(), "xauth -f") {
		t.Errorf("Cookie from an empty file: %v", err)
	}
}

// The xauth program (Debian's xauth, which Xlib's own tools follow) reads the files written here, and the
// cookies it adds are found here.
func TestXauthProgramAgrees(t *testing.T) {
	if _, err := exec.LookPath("xauth"); err != nil {
		t.Fatalf("the xauth program is missing (make deps installs the Debian package xauth): %v", err)
	}
	dir := t.TempDir()
	cookie, err := NewCookie()
	if err != nil {
		t.Fatal(err)
	}
	ours := filepath.Join(dir, "ours")
	if err := Write(ours, WildcardEntry(cookie)); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xauth", "-f", ours, "list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), MagicCookie+"  "+hex.EncodeToString(cookie)) {
		t.Errorf("xauth list of our file: %q %v", out, err)
	}
	theirs := filepath.Join(dir, "theirs")
	if out, err := exec.Command("xauth", "-f", theirs, "add", ":7", ".", hex.EncodeToString(cookie)).CombinedOutput(); err != nil {
		t.Fatalf("xauth add: %s %v", out, err)
	}
	if got, err := Cookie(theirs, "7"); err != nil || !bytes.Equal(got, cookie) {
		t.Errorf("Cookie of xauth's file: %x %v, want %x", got, err, cookie)
	}
	if _, err := Cookie(theirs, "8"); err == nil {
		t.Error("xauth's cookie for :7 was given for :8")
	}
}
