// Package commands owns actions: element resolution against a snapshot with stale-reference
// recovery, the chain executor that walks a backend's declared fallback steps with retries and
// deadlines, expect checks subscribed before the action is sent, and the post state. Engine.Do
// is the operation of every action endpoint; package bus carries it over NATS.
package commands
