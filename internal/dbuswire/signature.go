package dbuswire

import (
	"reflect"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"
)

// The types of the wire: a signature split into complete types, their alignment, and the Go
// types godbus decodes them into.

// nextType splits the first complete type off sig, checking it as the specification asks:
// containers nest at most 64 deep, a struct has members, a dict entry is an array's element with
// a basic key.
func nextType(sig string, depth int) (t, rest string, err error) {
	if sig == "" {
		return "", "", wireErrorf("a signature ends inside a type")
	}
	if depth > maxWireDeep {
		return "", "", wireErrorf("signature %q nests deeper than %d", sig, maxWireDeep)
	}
	switch c := sig[0]; c {
	case 'y', 'b', 'n', 'q', 'i', 'u', 'x', 't', 'd', 's', 'o', 'g', 'v', 'h':
		return sig[:1], sig[1:], nil
	case 'a':
		if len(sig) > 1 && sig[1] == '{' {
			if len(sig) < 3 || !isBasicType(sig[2]) {
				return "", "", wireErrorf("a dict entry needs a basic key: %q", sig)
			}
			_, after, err := nextType(sig[3:], depth+1)
			if err != nil {
				return "", "", err
			}
			if after == "" || after[0] != '}' {
				return "", "", wireErrorf("a dict entry has one key and one value: %q", sig)
			}
			n := len(sig) - len(after) + 1
			return sig[:n], sig[n:], nil
		}
		_, after, err := nextType(sig[1:], depth+1)
		if err != nil {
			return "", "", err
		}
		n := len(sig) - len(after)
		return sig[:n], sig[n:], nil
	case '(':
		s := sig[1:]
		if s != "" && s[0] == ')' {
			return "", "", wireErrorf("an empty struct: %q", sig)
		}
		for s != "" && s[0] != ')' {
			var err error
			if _, s, err = nextType(s, depth+1); err != nil {
				return "", "", err
			}
		}
		if s == "" {
			return "", "", wireErrorf("a struct is not closed: %q", sig)
		}
		n := len(sig) - len(s) + 1
		return sig[:n], sig[n:], nil
	default:
		return "", "", wireErrorf("type code %q in signature %q", c, sig)
	}
}

func isBasicType(c byte) bool { return strings.IndexByte("ybnqiuxtdsogh", c) >= 0 }

// signatures holds the parsed signatures of the variants seen: AT-SPI uses a handful, and a
// bound keeps an app sending many from growing it.
var signatures = struct {
	sync.Mutex
	m map[string]dbus.Signature
}{m: map[string]dbus.Signature{}}

const maxSignatures = 256

// parsedSignature is t as a dbus.Signature.
func parsedSignature(t string) (dbus.Signature, error) {
	signatures.Lock()
	s, ok := signatures.m[t]
	signatures.Unlock()
	if ok {
		return s, nil
	}
	s, err := dbus.ParseSignature(t)
	if err != nil {
		return s, wireErrorf("signature %q: %v", t, err)
	}
	signatures.Lock()
	if len(signatures.m) < maxSignatures {
		signatures.m[t] = s
	}
	signatures.Unlock()
	return s, nil
}

// alignOf is the alignment of a value of type t on the wire.
func alignOf(t string) int {
	switch t[0] {
	case 'y', 'g', 'v':
		return 1
	case 'n', 'q':
		return 2
	case 'x', 't', 'd', '(', '{':
		return 8
	}
	return 4
}

// goType is the Go type godbus decodes a value of type t into.
func goType(t string) reflect.Type {
	switch t[0] {
	case 'y':
		return reflect.TypeFor[byte]()
	case 'b':
		return reflect.TypeFor[bool]()
	case 'n':
		return reflect.TypeFor[int16]()
	case 'q':
		return reflect.TypeFor[uint16]()
	case 'i':
		return reflect.TypeFor[int32]()
	case 'u':
		return reflect.TypeFor[uint32]()
	case 'x':
		return reflect.TypeFor[int64]()
	case 't':
		return reflect.TypeFor[uint64]()
	case 'd':
		return reflect.TypeFor[float64]()
	case 's':
		return reflect.TypeFor[string]()
	case 'o':
		return reflect.TypeFor[dbus.ObjectPath]()
	case 'g':
		return reflect.TypeFor[dbus.Signature]()
	case 'v':
		return reflect.TypeFor[dbus.Variant]()
	case 'h':
		return reflect.TypeFor[dbus.UnixFDIndex]()
	case '(':
		return reflect.TypeFor[[]any]()
	}
	// 'a'
	if t[1] == '{' {
		return reflect.MapOf(goType(t[2:3]), goType(t[3:len(t)-1]))
	}
	return reflect.SliceOf(goType(t[1:]))
}
