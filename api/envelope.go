package api

import "github.com/axbus/axbus/observer"

// Envelope is an event as published on <prefix>.<host>.evt.<app>.<type>.
type Envelope struct {
	Host string `json:"host"`
	// Boot identifies the daemon run; Seq counts its events from 1. Together they are unique, so
	// that the stream's duplicate window never drops an event of a restarted daemon.
	Boot string `json:"boot"`
	Seq  uint64 `json:"seq"`
	// Gap counts the events dropped just before this one because the publish queue was full.
	Gap uint64 `json:"gap,omitempty"`
	observer.Event
}

// SnapEnvelope is a polled snapshot diff as published on <prefix>.<host>.snap.<app>.
type SnapEnvelope struct {
	Host string `json:"host"`
	// Boot identifies the daemon run, as in event envelopes.
	Boot string `json:"boot"`
	// Seq counts the diffs published for one app instance (pid and generation), from 1: the
	// diffs of two instances of an app share a subject but not a sequence. A gone diff ends it.
	Seq uint64 `json:"seq"`
	// Gap counts the diffs of this app instance lost just before this one (the queue was full,
	// or NATS refused it). The poller follows a diff lost in the queue with a reset, so a
	// consumer that sees a gap drops its state and applies the next reset.
	Gap uint64 `json:"gap,omitempty"`
	observer.Diff
}

// MsgID is the Nats-Msg-Id of the envelope.
func (e *Envelope) MsgID() string { return MsgID(e.Host, e.Boot, e.Seq) }

// MsgID builds a Nats-Msg-Id: <host>-<boot>-<seq>.
func MsgID(host, boot string, seq uint64) string {
	return host + "-" + boot + "-" + uitoa(seq)
}

func uitoa(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
