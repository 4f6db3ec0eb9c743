package ax

import (
	"strings"
	"sync"
)

// CoreFoundation primitives. A function named create... or returning a "+1" reference hands the
// caller one it must release; everything else borrows.

const (
	utf8Encoding        = 0x08000100 // kCFStringEncodingUTF8
	cfNumberFloat64     = 6          // kCFNumberFloat64Type
	copyMultipleLenient = 0          // AXCopyMultipleAttributeOptions: report errors per attribute
)

// release releases ref unless it is NULL.
func release(ref uintptr) {
	if ref != 0 {
		cfRelease(ref)
	}
}

// createString is s as a CFString (+1).
func createString(s string) uintptr {
	return cfStringCreateWithBytes(0, stringBytes(s), int64(len(s)), utf8Encoding, 0)
}

// goString copies a CFString out as UTF-8, what UTF-8 cannot carry replaced by cfLossByte.
func goString(s uintptr) string {
	n := cfStringGetLength(s)
	return copyUTF8(n, func(from int64, buf []byte) (units, written int64) {
		units = cfStringGetBytes(s, cfRange{from, n - from}, utf8Encoding, cfLossByte, 0, &buf[0], int64(len(buf)), &written)
		return units, written
	})
}

// createNumber is f as a CFNumber (+1).
func createNumber(f float64) uintptr { return cfNumberCreate(0, cfNumberFloat64, &f) }

// numberValue reads a CFNumber as a float64.
func numberValue(n uintptr) float64 {
	var f float64
	cfNumberGetValue(n, cfNumberFloat64, &f)
	return f
}

// booleanRef is the shared kCFBooleanTrue or kCFBooleanFalse (not to be released).
func booleanRef(on bool) uintptr {
	if on {
		return kCFBooleanTrue
	}
	return kCFBooleanFalse
}

// createArray is a CFArray of items, each retained by the array (+1).
func createArray(items []uintptr) uintptr {
	if len(items) == 0 {
		return cfArrayCreate(0, nil, 0, kCFTypeArrayCallBacks)
	}
	return cfArrayCreate(0, &items[0], int64(len(items)), kCFTypeArrayCallBacks)
}

// createDictionary is a CFDictionary of one key and value (+1).
func createDictionary(key, value uintptr) uintptr {
	return cfDictionaryCreate(0, &key, &value, 1, kCFTypeDictionaryKeyCallBacks, kCFTypeDictionaryValueCallBacks)
}

// arrayItems lists a CFArray's items, borrowed from it.
func arrayItems(a uintptr) []uintptr {
	n := cfArrayGetCount(a)
	out := make([]uintptr, n)
	for i := range out {
		out[i] = cfArrayGetValueAtIndex(a, int64(i))
	}
	return out
}

// stringArray copies a CFArray of CFStrings out.
func stringArray(a uintptr) []string {
	var out []string
	for _, it := range arrayItems(a) {
		if cfGetTypeID(it) == typeString {
			out = append(out, goString(it))
		}
	}
	return out
}

// interned holds the CFStrings of the attribute names and the CFArrays of the attribute lists
// the code reads: made once, kept for the life of the process. Only names and lists written in
// the code are interned; names from requests are made and released per call.
var interned struct {
	mu    sync.Mutex
	names map[string]uintptr
	lists map[string]uintptr
}

// name is the interned CFString of an attribute, action or notification name of the code.
func name(s string) uintptr {
	interned.mu.Lock()
	defer interned.mu.Unlock()
	return internName(s)
}

func internName(s string) uintptr {
	if interned.names == nil {
		interned.names = map[string]uintptr{}
	}
	ref, ok := interned.names[s]
	if !ok {
		ref = createString(s)
		interned.names[s] = ref
	}
	return ref
}

// nameList is the interned CFArray of an attribute list of the code.
func nameList(attrs []string) uintptr {
	key := strings.Join(attrs, "\x00")
	interned.mu.Lock()
	defer interned.mu.Unlock()
	if interned.lists == nil {
		interned.lists = map[string]uintptr{}
	}
	ref, ok := interned.lists[key]
	if !ok {
		items := make([]uintptr, len(attrs))
		for i, a := range attrs {
			items[i] = internName(a)
		}
		ref = createArray(items)
		interned.lists[key] = ref
	}
	return ref
}
