package api

import "github.com/axbus/axbus/model"

// Envelope is an event as published on <prefix>.<host>.evt.<app>.<type>.
type Envelope struct {
	Host string `json:"host"`
	// Boot identifies the daemon run; Seq counts its events from 1. Host, boot and seq name an
	// event uniquely, in its body: events carry no headers, so a subscriber parses none.
	Boot string `json:"boot"`
	Seq  uint64 `json:"seq"`
	// Gap counts the events dropped just before this one because the publish queue was full.
	Gap uint64 `json:"gap,omitempty"`
	model.Event
	// Cut lists the texts of the event cut to MaxEventText bytes (see Bounded).
	Cut []Cut `json:"cut,omitempty"`
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
	model.Diff
}
