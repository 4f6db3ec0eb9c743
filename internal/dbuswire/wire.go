// Package dbuswire encodes D-Bus method calls and decodes their replies by hand, for the
// AT-SPI backend's peer connections: a call appended to a buffer, a reply decoded straight into
// the values godbus would have made (so dbus.Store and every reader of a *dbus.Call work
// unchanged). It knows no platform: its fuzzing runs anywhere.
package dbuswire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"
)

// The D-Bus wire format of a peer connection, encoded and decoded by hand. A walk of the GTK3
// fixture window is ~4,000 calls; through godbus each one cost a reflective encode, a goroutine,
// a write syscall, and two 4 KB decode buffers for its reply: more CPU than the app spent
// answering. Here a call is appended to a buffer and a reply decodes straight into the values
// godbus would have made (so dbus.Store and every reader of a *dbus.Call work unchanged).

// D-Bus message types and header fields (the specification's numbers).
const (
	methodCall   = 1
	MethodReturn = 2
	ErrorReply   = 3

	fieldPath        = 1
	fieldInterface   = 2
	fieldMember      = 3
	fieldErrorName   = 4
	fieldReplySerial = 5
	fieldSignature   = 8
)

// Limits of the specification: a message of at most 128 MiB, an array of at most 64 MiB, 64
// levels of nesting.
const (
	maxMessage  = 128 << 20
	maxArray    = 64 << 20
	maxWireDeep = 64
)

var ErrFormat = errors.New("malformed D-Bus message")

func wireErrorf(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, a...)...)
}

// --- encoding ---

func pad(b []byte, align int) []byte {
	for len(b)%align != 0 {
		b = append(b, 0)
	}
	return b
}

func appendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

func appendWireString(b []byte, s string) []byte {
	b = appendU32(pad(b, 4), uint32(len(s)))
	return append(append(b, s...), 0)
}

func appendWireSignature(b []byte, s string) []byte {
	return append(append(append(b, byte(len(s))), s...), 0)
}

// appendField appends one header field: a (yv) struct.
func appendField(b []byte, code byte, sig, value string) []byte {
	b = append(pad(b, 8), code)
	b = appendWireSignature(b, sig)
	if sig == "g" {
		return appendWireSignature(b, value)
	}
	return appendWireString(b, value)
}

// appendMethodCall appends a little-endian method call of method ("interface.Member") on path
// to b. The arguments are the few kinds AT-SPI calls take: strings, int32 and uint32.
func AppendMethodCall(b []byte, serial uint32, path, method string, args []any) ([]byte, error) {
	dot := strings.LastIndexByte(method, '.')
	if dot <= 0 || dot == len(method)-1 {
		return b, fmt.Errorf("method %q has no interface", method)
	}
	var sig [8]byte
	if len(args) > len(sig) {
		return b, fmt.Errorf("%d arguments: at most %d", len(args), len(sig))
	}
	for i, a := range args {
		switch a.(type) {
		case string:
			sig[i] = 's'
		case int32:
			sig[i] = 'i'
		case uint32:
			sig[i] = 'u'
		default:
			return b, fmt.Errorf("argument %d of %s is a %T: a peer call takes string, int32 or uint32", i, method, a)
		}
	}
	start := len(b)
	b = append(b, 'l', methodCall, 0, 1, 0, 0, 0, 0) // endianness, type, flags, version, body length
	b = appendU32(b, serial)
	b = append(b, 0, 0, 0, 0) // header fields' length
	fields := len(b)
	b = appendField(b, fieldPath, "o", path)
	b = appendField(b, fieldInterface, "s", method[:dot])
	b = appendField(b, fieldMember, "s", method[dot+1:])
	if len(args) > 0 {
		b = appendField(b, fieldSignature, "g", string(sig[:len(args)]))
	}
	binary.LittleEndian.PutUint32(b[start+12:], uint32(len(b)-fields))
	b = pad(b, 8) // the body starts 8-aligned (offsets count from the message's start, here start)
	body := len(b)
	for _, a := range args {
		switch v := a.(type) {
		case string:
			b = appendWireString(b, v)
		case int32:
			b = appendU32(pad(b, 4), uint32(v))
		case uint32:
			b = appendU32(pad(b, 4), v)
		}
	}
	binary.LittleEndian.PutUint32(b[start+4:], uint32(len(b)-body))
	return b, nil
}

// --- decoding ---

// Message is what a reader needs of one received message.
// Message is one message read: its type, the serial it answers, an error's name, and its body
// with the body's signature and byte order.
type Message struct {
	Type        byte
	ReplySerial uint32
	ErrorName   string
	Signature   string
	Order       binary.ByteOrder
	Body        []byte // aliases the read buffer: decode before the next read
}

// readWireMessage reads one message from r into *buf (grown as needed and reused).
func ReadMessage(r io.Reader, buf *[]byte) (Message, error) {
	var m Message
	var fixed [16]byte
	if _, err := io.ReadFull(r, fixed[:]); err != nil {
		return m, err
	}
	switch fixed[0] {
	case 'l':
		m.Order = binary.LittleEndian
	case 'B':
		m.Order = binary.BigEndian
	default:
		return m, wireErrorf("endianness byte %q", fixed[0])
	}
	m.Type = fixed[1]
	bodyLen := uint64(m.Order.Uint32(fixed[4:]))
	fieldsLen := uint64(m.Order.Uint32(fixed[12:]))
	headerEnd := (16 + fieldsLen + 7) &^ 7
	total := headerEnd + bodyLen
	if total > maxMessage {
		return m, wireErrorf("a message of %d bytes (the limit is %d)", total, maxMessage)
	}
	// Grown as the bytes arrive, not to the length the header claims: a 16-byte lie costs
	// nothing.
	b := append((*buf)[:0], fixed[:]...)
	for uint64(len(b)) < total {
		n := min(total-uint64(len(b)), 1<<20)
		b = slices.Grow(b, int(n))
		if _, err := io.ReadFull(r, b[len(b):len(b)+int(n)]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return m, err
		}
		b = b[:len(b)+int(n)]
	}
	*buf = b
	d := wireDecoder{buf: b[:16+fieldsLen], pos: 16, order: m.Order}
	for d.err == nil && d.pos < len(d.buf) {
		d.align(8)
		code := d.byte()
		sig := d.signature()
		if d.err != nil {
			break
		}
		switch {
		case code == fieldReplySerial && sig == "u":
			m.ReplySerial = d.u32()
		case code == fieldErrorName && sig == "s":
			m.ErrorName = d.string()
		case code == fieldSignature && sig == "g":
			m.Signature = d.signature()
		default:
			t, rest, err := nextType(sig, 0)
			if err != nil || rest != "" {
				return m, wireErrorf("header field %d has signature %q", code, sig)
			}
			d.value(t, 1)
		}
	}
	if d.err != nil {
		return m, d.err
	}
	m.Body = b[headerEnd:]
	return m, nil
}

// wireDecoder decodes values from buf. Its first error sticks: later reads return zero values.
type wireDecoder struct {
	buf   []byte
	pos   int
	order binary.ByteOrder
	err   error
}

func (d *wireDecoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *wireDecoder) align(n int) {
	p := (d.pos + n - 1) &^ (n - 1)
	if p > len(d.buf) {
		d.fail(wireErrorf("padding runs past the end"))
		return
	}
	d.pos = p
}

func (d *wireDecoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.buf)-d.pos {
		d.fail(wireErrorf("a value runs past the end"))
		return nil
	}
	b := d.buf[d.pos : d.pos+n]
	d.pos += n
	return b
}

func (d *wireDecoder) byte() byte {
	if b := d.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *wireDecoder) u16() uint16 {
	d.align(2)
	if b := d.take(2); b != nil {
		return d.order.Uint16(b)
	}
	return 0
}

func (d *wireDecoder) u32() uint32 {
	d.align(4)
	if b := d.take(4); b != nil {
		return d.order.Uint32(b)
	}
	return 0
}

func (d *wireDecoder) u64() uint64 {
	d.align(8)
	if b := d.take(8); b != nil {
		return d.order.Uint64(b)
	}
	return 0
}

func (d *wireDecoder) string() string {
	n := d.u32()
	b := d.take(int(n) + 1)
	if b == nil {
		return ""
	}
	if b[n] != 0 {
		d.fail(wireErrorf("a string without its terminating nul"))
		return ""
	}
	return string(b[:n])
}

func (d *wireDecoder) signature() string {
	n := d.byte()
	b := d.take(int(n) + 1)
	if b == nil {
		return ""
	}
	if b[n] != 0 {
		d.fail(wireErrorf("a signature without its terminating nul"))
		return ""
	}
	return string(b[:n])
}

// decodeBody decodes a body of signature sig into the values godbus would have made.
func DecodeBody(body []byte, order binary.ByteOrder, sig string) ([]any, error) {
	d := wireDecoder{buf: body, order: order}
	var out []any
	for sig != "" {
		t, rest, err := nextType(sig, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, d.value(t, 0))
		if d.err != nil {
			return nil, d.err
		}
		sig = rest
	}
	return out, nil
}

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

// value decodes one value of the complete type t.
func (d *wireDecoder) value(t string, depth int) any {
	switch t[0] {
	case 'y':
		return d.byte()
	case 'b':
		switch d.u32() {
		case 0:
			return false
		case 1:
			return true
		}
		d.fail(wireErrorf("a boolean neither 0 nor 1"))
		return false
	case 'n':
		return int16(d.u16())
	case 'q':
		return d.u16()
	case 'i':
		return int32(d.u32())
	case 'u':
		return d.u32()
	case 'x':
		return int64(d.u64())
	case 't':
		return d.u64()
	case 'd':
		return math.Float64frombits(d.u64())
	case 's':
		return d.string()
	case 'o':
		return dbus.ObjectPath(d.string())
	case 'h':
		return dbus.UnixFDIndex(d.u32())
	case 'g':
		s := d.signature()
		if s == "" || d.err != nil {
			return dbus.Signature{}
		}
		sig, err := dbus.ParseSignature(s)
		if err != nil {
			d.fail(wireErrorf("signature value %q: %v", s, err))
		}
		return sig
	case 'v':
		s := d.signature()
		if d.err != nil {
			return dbus.Variant{}
		}
		vt, rest, err := nextType(s, depth+1)
		if err != nil || rest != "" {
			d.fail(wireErrorf("a variant's signature %q is not one type", s))
			return dbus.Variant{}
		}
		v := d.value(vt, depth+1)
		if d.err != nil {
			return dbus.Variant{}
		}
		sig, err := parsedSignature(vt)
		if err != nil {
			d.fail(err)
			return dbus.Variant{}
		}
		return dbus.MakeVariantWithSignature(v, sig)
	case '(':
		d.align(8)
		var out []any
		for s := t[1 : len(t)-1]; s != "" && d.err == nil; {
			mt, rest, _ := nextType(s, depth+1) // t was checked whole
			out = append(out, d.value(mt, depth+1))
			s = rest
		}
		return out
	case 'a':
		return d.array(t, depth)
	}
	d.fail(wireErrorf("type %q", t))
	return nil
}

// array decodes an array of type t ("a..."), as the typed slice or map godbus makes.
func (d *wireDecoder) array(t string, depth int) any {
	n := d.u32()
	elem := t[1:]
	d.align(alignOf(elem))
	if d.err != nil {
		return nil
	}
	if n > maxArray || int(n) > len(d.buf)-d.pos {
		d.fail(wireErrorf("an array of %d bytes runs past the end", n))
		return nil
	}
	end := d.pos + int(n)
	each := func(fn func()) {
		for d.err == nil && d.pos < end {
			at := d.pos
			fn()
			if d.pos == at && d.err == nil {
				d.fail(wireErrorf("an array element of no bytes"))
			}
		}
		if d.err == nil && d.pos != end {
			d.fail(wireErrorf("an array's elements overrun its length"))
		}
	}
	switch elem {
	case "s":
		out := []string{}
		each(func() { out = append(out, d.string()) })
		return out
	case "o":
		out := []dbus.ObjectPath{}
		each(func() { out = append(out, dbus.ObjectPath(d.string())) })
		return out
	case "u":
		out := make([]uint32, 0, n/4)
		each(func() { out = append(out, d.u32()) })
		return out
	case "i":
		out := make([]int32, 0, n/4)
		each(func() { out = append(out, int32(d.u32())) })
		return out
	case "y":
		b := d.take(int(n))
		return append([]byte{}, b...)
	case "{sv}":
		out := map[string]dbus.Variant{}
		each(func() {
			d.align(8)
			k := d.string()
			out[k], _ = d.value("v", depth+2).(dbus.Variant)
		})
		return out
	case "{ss}":
		out := map[string]string{}
		each(func() {
			d.align(8)
			k := d.string()
			out[k] = d.string()
		})
		return out
	}
	if elem[0] == '(' {
		out := [][]any{}
		each(func() {
			v, _ := d.value(elem, depth+1).([]any)
			out = append(out, v)
		})
		return out
	}
	if elem[0] == '{' { // any other dict, through reflection
		kt, vt := elem[1:2], elem[2:len(elem)-1]
		m := reflect.MakeMap(reflect.MapOf(goType(kt), goType(vt)))
		each(func() {
			d.align(8)
			k := d.value(kt, depth+2)
			v := d.value(vt, depth+2)
			if d.err == nil {
				m.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(v))
			}
		})
		return m.Interface()
	}
	s := reflect.MakeSlice(reflect.SliceOf(goType(elem)), 0, 0)
	each(func() {
		if v := d.value(elem, depth+1); d.err == nil {
			s = reflect.Append(s, reflect.ValueOf(v))
		}
	})
	return s.Interface()
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
