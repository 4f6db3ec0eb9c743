package dbuswire

import (
	"encoding/binary"
	"io"
	"math"
	"reflect"
	"slices"

	"github.com/godbus/dbus/v5"
)

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

// ReadMessage reads one message from r into *buf (grown as needed and reused).
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
