package dbuswire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/godbus/dbus/v5"
)

type wireRef struct {
	Bus  string
	Path dbus.ObjectPath
}

// wireBodies are replies of the shapes AT-SPI answers, and every other type once.
var wireBodies = [][]any{
	{[]uint32{1 << 3, 1 << 31, 0}}, // GetState: au
	{uint32(34)},                   // GetRole
	{[]string{"org.a11y.atspi.Accessible", "org.a11y.atspi.Text"}}, // GetInterfaces
	{map[string]dbus.Variant{ // Properties.GetAll
		"Name":        dbus.MakeVariant("Sauvegarder — ✓"),
		"Description": dbus.MakeVariant(""),
		"Parent":      dbus.MakeVariant(wireRef{":1.7", "/org/a11y/atspi/accessible/12"}),
		"ChildCount":  dbus.MakeVariant(int32(3)),
		"Locale":      dbus.MakeVariant("C"),
	}},
	{[]wireRef{{":1.7", "/org/a11y/atspi/accessible/13"}, {":1.7", "/org/a11y/atspi/accessible/14"}}}, // GetChildren
	{[]wireRef{}}, // no children
	{struct{ X, Y, W, H int32 }{-4, 10, 800, 700}}, // GetExtents
	{dbus.MakeVariant(0.25)},                       // Properties.Get of CurrentValue
	{dbus.MakeVariant(int32(12))},                  // of CharacterCount
	{[]struct{ Name, Desc, Key string }{{"click", "Clicks the button", "<Alt>s"}, {"", "", ""}}}, // GetActions
	{map[string]string{"toolkit": "gtk", "id": "save"}},                                          // GetAttributes
	{[]struct { // GetRelationSet
		Type    uint32
		Targets []wireRef
	}{{2, []wireRef{{":1.7", "/org/a11y/atspi/accessible/9"}}}, {5, nil}}},
	{""},                       // GetText of nothing
	{"line one\nline two\x01"}, // GetText
	{[]struct { // Cache.GetItems
		Ref, App, Parent wireRef
		Index, Count     int32
		Ifaces           []string
		Name             string
		Role             uint32
		Desc             string
		States           []uint32
	}{{wireRef{":1.7", "/a/1"}, wireRef{":1.7", "/a/0"}, wireRef{":1.7", "/a/0"}, 0, 2, []string{"org.a11y.atspi.Accessible"}, "w", 69, "", []uint32{1, 0}}}},
	{byte(7), true, false, int16(-3), uint16(9), int64(math.MinInt64), uint64(math.MaxUint64), math.Inf(-1)},
	{dbus.ObjectPath("/x/y"), dbus.SignatureOf("a{sv}", uint32(0)), dbus.UnixFDIndex(2)},
	{[]byte("bytes\x00in"), []byte{}, [][]string{{"a"}, {}}, map[uint32]dbus.Variant{1: dbus.MakeVariant([]int32{1, 2})}},
	{map[string]map[string]dbus.Variant{"outer": {"inner": dbus.MakeVariant(dbus.MakeVariant(uint16(1)))}}},
	{[]dbus.Variant{dbus.MakeVariant("v"), dbus.MakeVariant(int64(1))}, []float64{0.5}, []bool{true}, map[string]string{}},
	{},
}

// godbusEncoded is a method return (or error) carrying body, as godbus writes it.
func godbusEncoded(t testing.TB, order binary.ByteOrder, errName string, body []any) []byte {
	t.Helper()
	m := &dbus.Message{Type: dbus.TypeMethodReply, Headers: map[dbus.HeaderField]dbus.Variant{
		dbus.FieldReplySerial: dbus.MakeVariant(uint32(77)),
		dbus.FieldSender:      dbus.MakeVariant(":1.7"),
	}, Body: body}
	if errName != "" {
		m.Type = dbus.TypeError
		m.Headers[dbus.FieldErrorName] = dbus.MakeVariant(errName)
	}
	if len(body) > 0 {
		m.Headers[dbus.FieldSignature] = dbus.MakeVariant(dbus.SignatureOf(body...))
	}
	var buf bytes.Buffer
	if err := m.EncodeTo(&buf, order); err != nil {
		t.Fatalf("godbus encodes %#v: %v", body, err)
	}
	return buf.Bytes()
}

// same compares decoded bodies as printed: NaN is then equal to itself, maps print sorted.
func same(a, b []any) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }

func TestRepliesDecodeAsGodbusDecodes(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for i, body := range wireBodies {
			raw := godbusEncoded(t, order, "", body)
			want, err := dbus.DecodeMessage(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("godbus decodes body %d: %v", i, err)
			}
			var buf []byte
			m, err := ReadMessage(bytes.NewReader(raw), &buf)
			if err != nil {
				t.Fatalf("%v body %d: %v", order, i, err)
			}
			if m.Type != MethodReturn || m.ReplySerial != 77 {
				t.Errorf("%v body %d: type %d reply serial %d, want 2 and 77", order, i, m.Type, m.ReplySerial)
			}
			got, err := DecodeBody(m.Body, m.Order, m.Signature)
			if err != nil {
				t.Fatalf("%v body %d (%s): %v", order, i, m.Signature, err)
			}
			if !same(got, want.Body) {
				t.Errorf("%v body %d (%s):\n got %#v\nwant %#v", order, i, m.Signature, got, want.Body)
			}
		}
	}
	// What the readers of a reply do with it works on ours as on godbus's.
	raw := godbusEncoded(t, binary.LittleEndian, "", wireBodies[11])
	var buf []byte
	m, _ := ReadMessage(bytes.NewReader(raw), &buf)
	body, _ := DecodeBody(m.Body, m.Order, m.Signature)
	var relations []struct {
		Type    uint32
		Targets []struct {
			Bus  string
			Path dbus.ObjectPath
		}
	}
	if err := dbus.Store(body, &relations); err != nil || len(relations) == 0 || len(relations[0].Targets) == 0 ||
		relations[0].Targets[0].Bus != ":1.7" || relations[0].Targets[0].Path != "/org/a11y/atspi/accessible/9" {
		t.Errorf("dbus.Store of a decoded relation set: %+v %v", relations, err)
	}
}

func TestErrorRepliesCarryTheirName(t *testing.T) {
	raw := godbusEncoded(t, binary.LittleEndian, "org.freedesktop.DBus.Error.UnknownObject", []any{"no such object"})
	var buf []byte
	m, err := ReadMessage(bytes.NewReader(raw), &buf)
	if err != nil {
		t.Fatal(err)
	}
	if m.Type != ErrorReply || m.ErrorName != "org.freedesktop.DBus.Error.UnknownObject" {
		t.Errorf("type %d name %q", m.Type, m.ErrorName)
	}
}

func TestMethodCallsDecodeInGodbus(t *testing.T) {
	cases := []struct {
		method string
		args   []any
	}{
		{"org.a11y.atspi.Accessible.GetState", nil},
		{"org.freedesktop.DBus.Properties.GetAll", []any{"org.a11y.atspi.Accessible"}},
		{"org.freedesktop.DBus.Properties.Get", []any{"org.a11y.atspi.Value", "CurrentValue"}},
		{"org.a11y.atspi.Component.GetExtents", []any{uint32(0)}},
		{"org.a11y.atspi.Text.GetText", []any{int32(0), int32(-1)}},
		{"org.a11y.atspi.Action.GetName", []any{int32(2)}},
	}
	var b []byte
	for i, c := range cases {
		var err error
		b, err = AppendMethodCall(b[:0], uint32(i+1), "/org/a11y/atspi/accessible/42", c.method, c.args)
		if err != nil {
			t.Fatal(err)
		}
		m, err := dbus.DecodeMessage(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: godbus: %v", c.method, err)
		}
		if m.Type != dbus.TypeMethodCall || m.Serial() != uint32(i+1) {
			t.Errorf("%s: type %v serial %d", c.method, m.Type, m.Serial())
		}
		dot := len(c.method) - len(c.method[bytes.LastIndexByte([]byte(c.method), '.')+1:]) - 1
		want := map[dbus.HeaderField]any{
			dbus.FieldPath:      dbus.ObjectPath("/org/a11y/atspi/accessible/42"),
			dbus.FieldInterface: c.method[:dot],
			dbus.FieldMember:    c.method[dot+1:],
		}
		for f, v := range want {
			if got := m.Headers[f].Value(); got != v {
				t.Errorf("%s: header %d is %#v, want %#v", c.method, f, got, v)
			}
		}
		if !same(m.Body, c.args) && !(len(m.Body) == 0 && len(c.args) == 0) {
			t.Errorf("%s: body %#v, want %#v", c.method, m.Body, c.args)
		}
	}
	if _, err := AppendMethodCall(nil, 1, "/", "org.a.B", []any{1.5}); err == nil {
		t.Error("a float argument was encoded")
	}
	if _, err := AppendMethodCall(nil, 1, "/", "NoInterface", nil); err == nil {
		t.Error("a method without an interface was encoded")
	}
}

func TestWireMessagesClaimingMoreThanTheyHold(t *testing.T) {
	raw := godbusEncoded(t, binary.LittleEndian, "", []any{"abc"})
	var buf []byte
	for n := range len(raw) { // every truncation fails, none panics
		if _, err := ReadMessage(bytes.NewReader(raw[:n]), &buf); err == nil {
			t.Fatalf("a message cut at %d of %d bytes was read", n, len(raw))
		}
	}
	huge := append([]byte{}, raw[:16]...)
	binary.LittleEndian.PutUint32(huge[4:], math.MaxUint32)
	if _, err := ReadMessage(bytes.NewReader(huge), &buf); !errors.Is(err, ErrFormat) {
		t.Errorf("a 4 GB body: %v", err)
	}
	if cap(buf) > 1<<20 {
		t.Errorf("a lying header made the reader hold %d bytes", cap(buf))
	}
}

// FuzzWireMessage: any bytes read as a message never panic, and what both decoders accept
// decodes alike.
func FuzzWireMessage(f *testing.F) {
	for _, body := range wireBodies {
		f.Add(godbusEncoded(f, binary.LittleEndian, "", body))
	}
	f.Add(godbusEncoded(f, binary.BigEndian, "", wireBodies[3]))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var buf []byte
		m, err := ReadMessage(bytes.NewReader(raw), &buf)
		if err != nil {
			return
		}
		got, err := DecodeBody(m.Body, m.Order, m.Signature)
		if err != nil {
			return
		}
		want, err := dbus.DecodeMessage(bytes.NewReader(raw))
		if err != nil || want.Type != dbus.TypeMethodReply {
			return
		}
		if !same(got, want.Body) {
			t.Errorf("decoded %#v, godbus %#v", got, want.Body)
		}
	})
}
