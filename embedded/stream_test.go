package embedded

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/nats-io/nats.go/jetstream"
)

// 5. The event stream captures core publishes, written asynchronously, and
// survives a restart; the KV bucket allows per-key TTLs.
func TestEventStreamAndKV(t *testing.T) {
	dir := t.TempDir()
	opts := []Option{WithEventStream("EVT", "ax.h1.evt.>"), WithKeyValue("leases")}
	s := startTest(t, dir, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	nc, _, err := Connect(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := nc.Publish("ax.h1.evt.app.focus_changed", []byte(`{"app":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	waitMsgs(t, ctx, s.JetStream(), "EVT", 1)

	if err := nc.Publish("ax.h1.evt.app.window_opened", []byte("w")); err != nil {
		t.Fatal(err)
	}
	waitMsgs(t, ctx, s.JetStream(), "EVT", 2)

	st, err := s.JetStream().Stream(ctx, "EVT")
	if err != nil {
		t.Fatal(err)
	}
	cfg := st.CachedInfo().Config
	if cfg.Storage != jetstream.FileStorage || cfg.MaxAge != 24*time.Hour || cfg.MaxBytes != 512<<20 ||
		cfg.Discard != jetstream.DiscardOld || cfg.PersistMode != jetstream.AsyncPersistMode {
		t.Errorf("stream config = %+v", cfg)
	}

	kv, err := s.JetStream().KeyValue(ctx, "leases")
	if err != nil {
		t.Fatal(err)
	}
	kst, err := kv.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if kst.LimitMarkerTTL() != time.Second {
		t.Errorf("LimitMarkerTTL = %v", kst.LimitMarkerTTL())
	}
	if _, err := kv.Create(ctx, "lease.a", []byte("me"), jetstream.KeyTTL(time.Second)); err != nil {
		t.Fatalf("Create with KeyTTL: %v", err)
	}

	nc.Close()
	shutdown(t, s)

	s = startTest(t, dir, opts...)
	waitMsgs(t, ctx, s.JetStream(), "EVT", 2)
	st, err = s.JetStream().Stream(ctx, "EVT")
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetLastMsgForSubject(ctx, "ax.h1.evt.app.focus_changed")
	if err != nil || string(m.Data) != `{"app":"x"}` {
		t.Errorf("after restart: %v %v", m, err)
	}
}

func waitMsgs(t *testing.T, ctx context.Context, js jetstream.JetStream, stream string, want uint64) {
	t.Helper()
	st, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	var got uint64
	if !testkit.Within(3*time.Second, func() bool {
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = info.State.Msgs
		return got == want
	}) {
		t.Fatalf("stream %s has %d messages, want %d", stream, got, want)
	}
}
