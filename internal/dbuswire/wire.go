// Package dbuswire encodes D-Bus method calls and decodes their replies by hand, for the
// AT-SPI backend's peer connections: a call appended to a buffer, a reply decoded straight into
// the values godbus would have made (so dbus.Store and every reader of a *dbus.Call work
// unchanged). It knows no platform: its fuzzing runs anywhere.
package dbuswire

import (
	"errors"
)

// The D-Bus wire format of a peer connection, encoded and decoded by hand. A walk of the GTK3
// fixture window is ~4,000 calls; through godbus each one cost a reflective encode, a goroutine,
// a write syscall, and two 4 KB decode buffers for its reply: more CPU than the app spent
// answering. Here a call is appended to a buffer and a reply decodes straight into the values
// godbus would have made (so dbus.Store and every reader of a *dbus.Call work unchanged).

// D-Bus message types and header fields (the specification's numbers).
const (
	methodCall   = 1
	MethodReturn = 2
	ErrorReply   = 3

	fieldPath        = 1
	fieldInterface   = 2
	fieldMember      = 3
	fieldErrorName   = 4
	fieldReplySerial = 5
	fieldSignature   = 8
)

// Limits of the specification: a message of at most 128 MiB, an array of at most 64 MiB, 64
// levels of nesting.
const (
	maxMessage  = 128 << 20
	maxArray    = 64 << 20
	maxWireDeep = 64
)

var ErrFormat = errors.New("malformed D-Bus message")
