package dbuswire

import (
	"encoding/binary"
	"fmt"
	"strings"
)

func wireErrorf(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, a...)...)
}

// --- encoding ---

func pad(b []byte, align int) []byte {
	for len(b)%align != 0 {
		b = append(b, 0)
	}
	return b
}

func appendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

func appendWireString(b []byte, s string) []byte {
	b = appendU32(pad(b, 4), uint32(len(s)))
	return append(append(b, s...), 0)
}

func appendWireSignature(b []byte, s string) []byte {
	return append(append(append(b, byte(len(s))), s...), 0)
}

// appendField appends one header field: a (yv) struct.
func appendField(b []byte, code byte, sig, value string) []byte {
	b = append(pad(b, 8), code)
	b = appendWireSignature(b, sig)
	if sig == "g" {
		return appendWireSignature(b, value)
	}
	return appendWireString(b, value)
}

// AppendMethodCall appends a little-endian method call of method ("interface.Member") on path
// to b. The arguments are the few kinds AT-SPI calls take: strings, int32 and uint32.
func AppendMethodCall(b []byte, serial uint32, path, method string, args []any) ([]byte, error) {
	dot := strings.LastIndexByte(method, '.')
	if dot <= 0 || dot == len(method)-1 {
		return b, fmt.Errorf("method %q has no interface", method)
	}
	var sig [8]byte
	if len(args) > len(sig) {
		return b, fmt.Errorf("%d arguments: at most %d", len(args), len(sig))
	}
	for i, a := range args {
		switch a.(type) {
		case string:
			sig[i] = 's'
		case int32:
			sig[i] = 'i'
		case uint32:
			sig[i] = 'u'
		default:
			return b, fmt.Errorf("argument %d of %s is a %T: a peer call takes string, int32 or uint32", i, method, a)
		}
	}
	start := len(b)
	b = append(b, 'l', methodCall, 0, 1, 0, 0, 0, 0) // endianness, type, flags, version, body length
	b = appendU32(b, serial)
	b = append(b, 0, 0, 0, 0) // header fields' length
	fields := len(b)
	b = appendField(b, fieldPath, "o", path)
	b = appendField(b, fieldInterface, "s", method[:dot])
	b = appendField(b, fieldMember, "s", method[dot+1:])
	if len(args) > 0 {
		b = appendField(b, fieldSignature, "g", string(sig[:len(args)]))
	}
	binary.LittleEndian.PutUint32(b[start+12:], uint32(len(b)-fields))
	b = pad(b, 8) // the body starts 8-aligned (offsets count from the message's start, here start)
	body := len(b)
	for _, a := range args {
		switch v := a.(type) {
		case string:
			b = appendWireString(b, v)
		case int32:
			b = appendU32(pad(b, 4), uint32(v))
		case uint32:
			b = appendU32(pad(b, 4), v)
		}
	}
	binary.LittleEndian.PutUint32(b[start+4:], uint32(len(b)-body))
	return b, nil
}

// --- decoding ---
