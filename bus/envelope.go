package bus

import (
	"github.com/axbus/axbus/observer"
)

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
