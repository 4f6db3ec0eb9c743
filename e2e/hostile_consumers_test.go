package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
)

// TestConsumersAreOwned (issue 33, attack 5): with the real nats CLI, a durable consumer is named
// under its identity, a monitor can neither read the info of an agent's consumer nor delete it
// while the agent can, nor pull from it (the server refuses it), and an identity's consumers are
// counted, ephemeral ones too.
func TestConsumersAreOwned(t *testing.T) {
	s := startSecDaemon(t)
	s.toggle(t, s.agent) // something in the history

	out, err := s.natsAs(t, s.agent, "consumer", "add", s.stream, "agentacons", "--pull", "--defaults")
	if err == nil || !strings.Contains(out, `"agent1_agentacons"`) {
		t.Errorf("a durable not named under its identity: %v, want a refusal naming agent1_agentacons", err)
	}
	violations := make(chan error, 16) // the monitor's connection, open before the durable is made
	early := s.connectAs(t, s.monitor, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case violations <- err:
		default:
		}
	}))
	if out, err := s.natsAs(t, s.agent, "consumer", "add", s.stream, "agent1_cons", "--pull", "--defaults"); err != nil {
		t.Fatalf("the agent's own durable: %v\n%s", err, out)
	}
	// Its pulls are the agent's: the server refuses the monitor's, with the nats CLI and on a
	// connection that was open before the durable was made, and nothing is delivered to it.
	pull := "$JS.API.CONSUMER.MSG.NEXT." + s.stream + ".agent1_cons"
	// (the CLI reports the violation and waits out its timeout for a reply that never comes)
	if out, err := s.natsAs(t, s.monitor, "req", pull, `{"batch":1,"no_wait":true}`, "--timeout", "1s"); !strings.Contains(out, "Permissions Violation for Publish") {
		t.Errorf("the monitor's pull from the agent's durable with the nats CLI: %v, want a permissions violation:\n%s", err, out)
	}
	if m, err := early.Request(pull, []byte(`{"batch":1,"no_wait":true}`), 2*time.Second); err == nil {
		t.Errorf("the monitor's open connection pulled from the agent's durable: %s %q", m.Data, m.Header)
	}
	select {
	case err := <-violations:
		if !strings.Contains(err.Error(), "Permissions Violation") {
			t.Errorf("the monitor's open connection: %v, want a permissions violation", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the server did not refuse the monitor's open connection its pull")
	}
	if got := s.consumerInfo(t, "agent1_cons").Delivered.Consumer; got != 0 {
		t.Errorf("the monitor's pulls were delivered %d messages of the agent's durable", got)
	}
	if out, err := s.natsAs(t, s.agent, "consumer", "next", s.stream, "agent1_cons", "--count", "1", "--no-ack"); err != nil {
		t.Errorf("the agent pulls from its own durable: %v\n%s", err, out)
	}
	if got := s.consumerInfo(t, "agent1_cons").Delivered.Consumer; got != 1 {
		t.Errorf("the agent's own pull delivered %d messages, want 1", got)
	}
	for _, args := range [][]string{{"consumer", "info", s.stream, "agent1_cons"}, {"consumer", "rm", s.stream, "agent1_cons", "-f"}} {
		// (nats consumer info, refused, looks for the consumer in a list the monitor may not read.)
		out, err := s.natsAs(t, s.monitor, args...)
		if err == nil || strings.Contains(out, "axbus_owner") || args[1] == "rm" && !strings.Contains(out, "belongs to another identity") {
			t.Errorf("the monitor's %s of the agent's consumer: %v, want a refusal", args[1], err)
		}
	}
	s.consumerInfo(t, "agent1_cons") // still there
	if out, err := s.natsAs(t, s.agent, "consumer", "info", s.stream, "agent1_cons"); err != nil || !strings.Contains(out, "agent1_cons") {
		t.Errorf("the agent's info of its own consumer: %v", err)
	}

	// The count: the agent's 16th is made, its 17th refused, ephemeral ones counted.
	js, err := jetstream.New(s.connectAs(t, s.agent))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := 2; i < bus.MaxConsumersPerIdentity; i++ {
		if _, err := js.CreateConsumer(ctx, s.stream, jetstream.ConsumerConfig{Durable: fmt.Sprintf("agent1_c%d", i)}); err != nil {
			t.Fatalf("the agent's consumer %d: %v", i, err)
		}
	}
	if _, err := js.CreateConsumer(ctx, s.stream, jetstream.ConsumerConfig{}); err != nil { // an ephemeral one, the 16th
		t.Fatalf("the agent's ephemeral consumer: %v", err)
	}
	out, err = s.natsAs(t, s.agent, "consumer", "add", s.stream, "agent1_one_more", "--pull", "--defaults")
	if err == nil || !strings.Contains(out, fmt.Sprintf("agent1 has %d consumers", bus.MaxConsumersPerIdentity)) {
		t.Errorf("the agent's consumer past its count: %v, want a refusal saying it has %d", err, bus.MaxConsumersPerIdentity)
	}
	if _, err := js.CreateConsumer(ctx, s.stream, jetstream.ConsumerConfig{}); err == nil {
		t.Error("the agent made an ephemeral consumer past its count")
	}
	// Another identity is not held up by the agent's count, and the agent deletes its own.
	if out, err := s.natsAs(t, s.monitor, "consumer", "add", s.stream, "mon_watch", "--pull", "--defaults"); err != nil {
		t.Errorf("the monitor's own durable: %v\n%s", err, out)
	}
	if out, err := s.natsAs(t, s.agent, "consumer", "rm", s.stream, "agent1_cons", "-f"); err != nil {
		t.Errorf("the agent deletes its own consumer: %v\n%s", err, out)
	}
	if out, err := s.natsAs(t, s.agent, "consumer", "add", s.stream, "agent1_again", "--pull", "--defaults"); err != nil {
		t.Errorf("the agent's consumer once it deleted one: %v\n%s", err, out)
	}
	// The owner (admin) reaches every consumer: it deletes the agent's.
	if out, err := s.natsAs(t, s.owner, "consumer", "rm", s.stream, "agent1_again", "-f"); err != nil {
		t.Errorf("the owner deletes the agent's consumer: %v\n%s", err, out)
	}
	// tail still works for every role.
	published := s.status(t, s.owner).Events.Published
	for _, who := range []secIdent{s.monitor, s.agent, s.owner} {
		s.tailUntil(t, who, func(e api.Envelope) bool { return e.Seq >= published })
	}
	s.unharmed(t)
}
