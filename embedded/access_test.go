package embedded

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

var testRoles = map[string]Grant{
	"monitor": {
		Services:    []string{"ax.h.api.apps"},
		Streams:     []string{"ax.h.evt.>"},
		JetStream:   []string{"$JS.API.INFO", "$JS.API.STREAM.INFO.EVT", "$JS.API.CONSUMER.CREATE.EVT.>", "$JS.API.CONSUMER.MSG.NEXT.EVT.>", "$JS.API.CONSUMER.DELETE.EVT.>", "$JS.API.CONSUMER.INFO.EVT.>"},
		DenyPublish: []string{"ax.h.evt.>"},
	},
	"admin": {
		Services:    []string{"ax.h.api.apps", "ax.h.api.click"},
		Streams:     []string{"ax.h.evt.>"},
		JetStream:   []string{"$JS.API.INFO", "$JS.API.STREAM.INFO.EVT", "$JS.API.STREAM.PURGE.EVT", "$JS.API.CONSUMER.CREATE.EVT.>", "$JS.API.CONSUMER.MSG.NEXT.EVT.>", "$JS.API.CONSUMER.DELETE.EVT.>", "$JS.API.CONSUMER.INFO.EVT.>"},
		DenyPublish: []string{"ax.h.evt.>"},
	},
}

func newUserKey(t *testing.T, dir, name string) (path, pub string) {
	t.Helper()
	kp, _ := nkeys.CreateUser()
	seed, _ := kp.Seed()
	pub, _ = kp.PublicKey()
	path = filepath.Join(dir, name+".nk")
	if err := os.WriteFile(path, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, pub
}

func connectAs(t *testing.T, url, seedFile string) (*nats.Conn, error) {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	return nats.Connect(url, opt, nats.Timeout(2*time.Second))
}

// TestAccessByAccount: each user reaches what its role imports, no more; the daemon learns
// who asks from the server; one user's subjects are invisible to another.
func TestAccessByAccount(t *testing.T) {
	dir := t.TempDir()
	monPath, monPub := newUserKey(t, t.TempDir(), "mon")
	s, err := Start(WithStateDir(dir), WithListen("127.0.0.1:0"), WithEventStream("EVT", "ax.h.evt.>"),
		WithAccess(testRoles, "admin"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	// The daemon answers apps and click with who asked.
	for _, ep := range []string{"apps", "click"} {
		if _, err := s.Conn().Subscribe("ax.h.api."+ep, func(m *nats.Msg) {
			var ci struct {
				Acc string `json:"acc"`
			}
			_ = json.Unmarshal([]byte(m.Header.Get("Nats-Request-Info")), &ci)
			_ = m.Respond([]byte(ci.Acc))
		}); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.Conn().Flush()

	if err := s.AddUser(User{Name: "mon", Role: "monitor", Nkey: monPub}); err != nil {
		t.Fatal(err)
	}
	owner, err := connectAs(t, s.ClientURL(), s.CredsFile())
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	mon, err := connectAs(t, s.ClientURL(), monPath)
	if err != nil {
		t.Fatal(err)
	}
	defer mon.Close()

	ask := func(nc *nats.Conn, subject string, hdr nats.Header) (string, error) {
		m, err := nc.RequestMsg(&nats.Msg{Subject: subject, Header: hdr}, time.Second)
		if err != nil {
			return "", err
		}
		return string(m.Data), nil
	}
	if who, err := ask(owner, "ax.h.api.click", nil); err != nil || who != OwnerName {
		t.Fatalf("owner's click: %q %v", who, err)
	}
	forged := nats.Header{"Nats-Request-Info": []string{`{"acc":"owner"}`}}
	if who, err := ask(mon, "ax.h.api.apps", forged); err != nil || who != "mon" {
		t.Fatalf("monitor's apps with a forged identity: %q %v (want the server's: mon)", who, err)
	}
	if _, err := ask(mon, "ax.h.api.click", nil); err == nil {
		t.Fatal("a monitor's click was answered")
	}

	// Events reach both; a forged one is refused and reaches no one.
	got := make(chan string, 4)
	sub, _ := owner.Subscribe("ax.h.evt.>", func(m *nats.Msg) { got <- string(m.Data) })
	defer sub.Unsubscribe()
	_ = owner.Flush()
	_ = mon.Publish("ax.h.evt.app.focus_changed", []byte("forged"))
	_ = mon.Flush()
	if _, err := s.JetStream().Publish(context.Background(), "ax.h.evt.app.focus_changed", []byte("real")); err != nil {
		t.Fatal(err)
	}
	if e := <-got; e != "real" {
		t.Fatalf("the owner got %q", e)
	}

	// Replies are private: the owner cannot see the monitor's inbox.
	spy, _ := owner.SubscribeSync("_INBOX.>")
	defer spy.Unsubscribe()
	_ = owner.Flush()
	if _, err := ask(mon, "ax.h.api.apps", nil); err != nil {
		t.Fatal(err)
	}
	if m, err := spy.NextMsg(200 * time.Millisecond); err == nil {
		t.Fatalf("the owner saw the monitor's reply on %s", m.Subject)
	}

	// The stream through the default JetStream API, read by the monitor; only the admin purges.
	js, _ := jetstream.New(mon)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cons, err := js.OrderedConsumer(ctx, "EVT", jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		t.Fatalf("ordered consumer across accounts: %v", err)
	}
	msg, err := cons.Next(jetstream.FetchMaxWait(3 * time.Second))
	if err != nil || string(msg.Data()) != "real" {
		t.Fatalf("tail: %v %v", msg, err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ROGUE", Subjects: []string{"ax.h.api.>"}}); err == nil {
		t.Fatal("a monitor created a stream")
	}
	if err := mustStream(ctx, t, mon).Purge(ctx); err == nil {
		t.Fatal("a monitor purged the stream")
	}
	if err := mustStream(ctx, t, owner).Purge(ctx); err != nil {
		t.Fatalf("the admin's purge: %v", err)
	}

	// Removed: its connection closes, and it cannot come back.
	closed := make(chan struct{})
	mon.SetClosedHandler(func(*nats.Conn) { close(closed) })
	mon.SetReconnectHandler(func(*nats.Conn) {})
	if err := s.RemoveUser("mon"); err != nil {
		t.Fatal(err)
	}
	if _, err := connectAs(t, s.ClientURL(), monPath); err == nil || !strings.Contains(err.Error(), "uthorization") {
		t.Fatalf("a removed user connected: %v", err)
	}
	if _, err := ask(mon, "ax.h.api.apps", nil); err == nil {
		t.Fatal("a removed user's connection is still served")
	}

	// Added users are kept in the state dir: a restarted server knows them.
	if err := s.AddUser(User{Name: "mon", Role: "monitor", Nkey: monPub}); err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	s2, err := Start(WithStateDir(dir), WithListen("127.0.0.1:0"), WithEventStream("EVT", "ax.h.evt.>"), WithAccess(testRoles, "admin"))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Shutdown(context.Background())
	if u, ok := s2.UserOfAccount("mon"); !ok || u.Role != "monitor" {
		t.Fatalf("after a restart: %+v %v", u, ok)
	}
	if nc, err := connectAs(t, s2.ClientURL(), monPath); err != nil {
		t.Fatalf("after a restart the monitor cannot connect: %v", err)
	} else {
		nc.Close()
	}
}

func mustStream(ctx context.Context, t *testing.T, nc *nats.Conn) jetstream.Stream {
	t.Helper()
	js, _ := jetstream.New(nc)
	st, err := js.Stream(ctx, "EVT")
	if err != nil {
		t.Fatalf("stream info: %v", err)
	}
	return st
}
