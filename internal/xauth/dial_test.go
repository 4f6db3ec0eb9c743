package xauth

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"testing"
)

// setupRequestWith is a connection setup request as a client writes it.
func setupRequestWith(order binary.ByteOrder, name string, data []byte) []byte {
	b := []byte{'l', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if order == binary.BigEndian {
		b[0] = 'B'
	}
	order.PutUint16(b[2:], 11)
	order.PutUint16(b[6:], uint16(len(name)))
	order.PutUint16(b[8:], uint16(len(data)))
	b = append(b, name...)
	b = append(b, make([]byte, pad4(len(name))-len(name))...)
	b = append(b, data...)
	return append(b, make([]byte, pad4(len(data))-len(data))...)
}

// What the X server receives is the client's setup request with the cookie in place of the client's own
// authorization (none, or another protocol's), however the client splits its writes, and then the client's
// requests unchanged.
func TestCookieConnPutsTheCookieInTheSetupRequest(t *testing.T) {
	cookie := bytes.Repeat([]byte{0xab}, CookieLen)
	next := []byte("the first request")
	for _, tc := range []struct {
		name  string
		order binary.ByteOrder
		auth  string
		data  []byte
	}{
		{"no authorization, little-endian", binary.LittleEndian, "", nil},
		{"another protocol, big-endian", binary.BigEndian, "XDM-AUTHORIZATION-1", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, server := net.Pipe()
			defer server.Close()
			conn := &cookieConn{Conn: client, cookie: cookie}
			defer conn.Close()
			sent := append(setupRequestWith(tc.order, tc.auth, tc.data), next...)
			want := append(setupRequestWith(tc.order, MagicCookie, cookie), next...)
			got := make(chan []byte, 1)
			go func() {
				b := make([]byte, len(want))
				_, _ = io.ReadFull(server, b)
				got <- b
			}()
			for _, part := range [][]byte{sent[:5], sent[5:13], sent[13:]} { // the last write ends the setup and starts a request
				if n, err := conn.Write(part); err != nil || n != len(part) {
					t.Fatalf("Write: %d %v, want %d", n, err, len(part))
				}
			}
			if b := <-got; !bytes.Equal(b, want) {
				t.Fatalf("the server got\n%x\nwant\n%x", b, want)
			}
		})
	}
}

func TestCookieConnRefusesWhatIsNoSetupRequest(t *testing.T) {
	client, server := net.Pipe()
	defer server.Close()
	conn := &cookieConn{Conn: client, cookie: make([]byte, CookieLen)}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET / HTTP/1.1\r\n")); err == nil {
		t.Fatal("an HTTP request passed as an X setup request")
	}
}

func TestLocalDisplay(t *testing.T) {
	for display, want := range map[string]struct {
		number string
		screen int
		ok     bool
	}{
		":0": {"0", 0, true}, ":12.1": {"12", 1, true}, "unix:3": {"3", 0, true},
		"otherhost:0": {ok: false}, "0": {ok: false}, ":": {ok: false}, ":x": {ok: false}, ":1.y": {ok: false}, ":-1": {ok: false},
	} {
		number, screen, err := localDisplay(display)
		if (err == nil) != want.ok || number != want.number || screen != want.screen {
			t.Errorf("localDisplay(%q) = %q %d %v, want %q %d ok=%v", display, number, screen, err, want.number, want.screen, want.ok)
		}
	}
}
