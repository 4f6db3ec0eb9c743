package ax

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/axbus/axbus/model"

	"github.com/ebitengine/purego"
)

// The system libraries the backend calls through purego. AX* lives in HIServices, which the
// ApplicationServices umbrella loads; AppKit must be loaded before purego/objc can find its
// classes.
const (
	libCoreFoundation = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
	libAppServices    = "/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices"
	libCoreGraphics   = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"
	libAppKit         = "/System/Library/Frameworks/AppKit.framework/AppKit"
	libObjC           = "/usr/lib/libobjc.A.dylib"
)

// The C functions. Declarations follow the C headers: CF Boolean results are uint8, CFIndex
// int64, pid_t int32, AXError int32, C callbacks uintptr (a func parameter would make purego
// create a callback per call). Out-parameters point at Go memory only for the call.
var (
	cfRetain                func(ref uintptr) uintptr
	cfRelease               func(ref uintptr)
	cfEqual                 func(a, b uintptr) uint8
	cfHash                  func(ref uintptr) uintptr
	cfGetTypeID             func(ref uintptr) uintptr
	cfStringGetTypeID       func() uintptr
	cfNumberGetTypeID       func() uintptr
	cfBooleanGetTypeID      func() uintptr
	cfArrayGetTypeID        func() uintptr
	cfStringCreateWithBytes func(alloc uintptr, bytes *byte, n int64, encoding uint32, external uint8) uintptr
	cfStringGetLength       func(s uintptr) int64
	cfStringGetBytes        func(s uintptr, r cfRange, encoding uint32, lossByte uint8, external uint8, buf *byte, max int64, used *int64) int64
	cfNumberCreate          func(alloc uintptr, typ int64, value *float64) uintptr
	cfNumberGetValue        func(n uintptr, typ int64, value *float64) uint8
	cfBooleanGetValue       func(b uintptr) uint8
	cfArrayGetCount         func(a uintptr) int64
	cfArrayGetValueAtIndex  func(a uintptr, i int64) uintptr
	cfArrayCreate           func(alloc uintptr, values *uintptr, n int64, callbacks uintptr) uintptr
	cfDictionaryCreate      func(alloc uintptr, keys, values *uintptr, n int64, keyCallbacks, valueCallbacks uintptr) uintptr

	cfRunLoopGetCurrent   func() uintptr
	cfRunLoopRun          func()
	cfRunLoopStop         func(rl uintptr)
	cfRunLoopAddSource    func(rl, src, mode uintptr)
	cfRunLoopRemoveSource func(rl, src, mode uintptr)
	cfRunLoopSourceCreate func(alloc uintptr, order int64, ctx *sourceContext) uintptr
	cfRunLoopSourceSignal func(src uintptr)
	cfRunLoopWakeUp       func(rl uintptr)

	axUIElementCreateApplication func(pid int32) uintptr
	axUIElementCreateSystemWide  func() uintptr
	// x and y are C float (float32), which purego passes as such.
	axUIElementCopyElementAtPosition       func(app uintptr, x, y float32, elem *uintptr) AXError
	axUIElementCopyAttributeValue          func(elem, attr uintptr, value *uintptr) AXError
	axUIElementCopyMultipleAttributeValues func(elem, attrs uintptr, options uint32, values *uintptr) AXError
	axUIElementCopyActionNames             func(elem uintptr, names *uintptr) AXError
	axUIElementIsAttributeSettable         func(elem, attr uintptr, settable *uint8) AXError
	axUIElementSetAttributeValue           func(elem, attr, value uintptr) AXError
	axUIElementPerformAction               func(elem, action uintptr) AXError
	axUIElementSetMessagingTimeout         func(elem uintptr, seconds float32) AXError
	axUIElementGetPid                      func(elem uintptr, pid *int32) AXError
	axUIElementGetTypeID                   func() uintptr
	axValueGetType                         func(v uintptr) AXValueType
	axValueGetValue                        func(v uintptr, typ AXValueType, out *byte) uint8
	axValueGetTypeID                       func() uintptr
	axValueCreate                          func(typ AXValueType, value unsafe.Pointer) uintptr
	axIsProcessTrustedWithOptions          func(options uintptr) uint8
	axObserverCreate                       func(pid int32, callback uintptr, observer *uintptr) AXError
	axObserverAddNotification              func(observer, elem, name, refcon uintptr) AXError
	axObserverRemoveNotification           func(observer, elem, name uintptr) AXError
	axObserverGetRunLoopSource             func(observer uintptr) uintptr

	cgEventCreateMouseEvent         func(source uintptr, typ uint32, at cgPoint, button uint32) uintptr
	cgEventCreateKeyboardEvent      func(source uintptr, key uint16, down bool) uintptr
	cgEventKeyboardSetUnicodeString func(event uintptr, n uint64, text *uint16)
	cgEventSetFlags                 func(event uintptr, flags uint64)
	cgEventSetIntegerValueField     func(event uintptr, field uint32, value int64)
	cgEventPost                     func(tap uint32, event uintptr)

	// A person's input: a listen-only event tap (its C callback is cbEventTap) and what it reads
	// of each event. CGEventMask is uint64, CGEventType uint32; C bool is Go bool.
	cgEventTapCreate                func(tap, place, options uint32, mask uint64, callback, info uintptr) uintptr
	cgEventTapEnable                func(tap uintptr, enable bool)
	cfMachPortCreateRunLoopSource   func(alloc, port uintptr, order int64) uintptr
	cfMachPortInvalidate            func(port uintptr)
	cgEventGetLocation              func(event uintptr) cgPoint
	cgEventGetFlags                 func(event uintptr) uint64
	cgEventGetIntegerValueField     func(event uintptr, field uint32) int64
	cgEventKeyboardGetUnicodeString func(event uintptr, max uint64, actual *uint64, text *uint16)

	// Displays and images: CGDirectDisplayID is uint32, size_t uint64, CGError int32, CGRect
	// passed and returned by value (purego follows each architecture's struct rules).
	cgMainDisplayID            func() uint32
	cgDisplayBounds            func(display uint32) cgRect
	cgGetActiveDisplayList     func(max uint32, displays *uint32, count *uint32) int32
	cgImageGetWidth            func(img uintptr) uint64
	cgImageGetHeight           func(img uintptr) uint64
	cgImageGetBytesPerRow      func(img uintptr) uint64
	cgImageGetBitsPerPixel     func(img uintptr) uint64
	cgImageGetBitsPerComponent func(img uintptr) uint64
	cgImageGetBitmapInfo       func(img uintptr) uint32
	cgImageGetDataProvider     func(img uintptr) uintptr
	cgDataProviderCopyData     func(provider uintptr) uintptr
	cfDataGetBytePtr           func(data uintptr) *byte
	cfDataGetLength            func(data uintptr) int64

	objcAutoreleasePoolPush func() uintptr
	objcAutoreleasePoolPop  func(pool uintptr)
)

// The optional C functions, nil where this macOS lacks them (bound by bindOptional, not a
// reason to fail the load): CGWindowListCreateImage is obsoleted in the macOS 15 SDK in favour
// of ScreenCaptureKit, and may go; CGPreflightScreenCaptureAccess is from macOS 10.15. C bool is
// Go bool.
var (
	cgWindowListCreateImage        func(bounds cgRect, list, window, image uint32) uintptr
	cgPreflightScreenCaptureAccess func() bool
)

// The data symbols: callback tables are used by address, constants by the value stored there.
var (
	kCFTypeArrayCallBacks           uintptr
	kCFTypeDictionaryKeyCallBacks   uintptr
	kCFTypeDictionaryValueCallBacks uintptr
	kCFBooleanTrue                  uintptr
	kCFBooleanFalse                 uintptr
	kCFRunLoopDefaultMode           uintptr
	kAXTrustedCheckOptionPrompt     uintptr
)

// The CF type ids the value conversion tells apart, read once at load.
var typeString, typeNumber, typeBoolean, typeArray, typeAXValue, typeAXElement uintptr

// cfRange is a CFRange passed by value.
type cfRange struct{ location, length int64 }

// cgPoint is a CGPoint passed by value.
type cgPoint struct{ x, y float64 }

// cgSize is a CGSize.
type cgSize struct{ w, h float64 }

// cgRect is a CGRect, flattened: the same memory and, to both ABIs, the same four doubles (an
// HFA in d0-d3 on arm64, in memory on amd64) as the nested C struct.
type cgRect struct{ x, y, w, h float64 }

var loaded struct {
	once sync.Once
	err  error
}

// load opens the frameworks and binds every function, once. Until something calls it,
// importing the package costs nothing. A failure is UNAVAILABLE.
func load() error {
	loaded.once.Do(func() { loaded.err = bindAll() })
	return loaded.err
}

// binding is one C function: its library, its Go declaration and its symbol name.
type binding struct {
	lib  *uintptr
	fn   any
	name string
}

// symbol is one data symbol: deref reads the pointer stored there, else its address is used.
type symbol struct {
	lib   *uintptr
	dst   *uintptr
	name  string
	deref bool
}

func bindAll() (err error) {
	defer func() {
		if r := recover(); r != nil { // purego panics on a declaration it cannot call
			err = unavailable(fmt.Errorf("cannot bind the frameworks: %v", r))
		}
	}()
	var cf, as, cg, objcLib uintptr
	for _, l := range []struct {
		dst  *uintptr
		path string
	}{{&cf, libCoreFoundation}, {&as, libAppServices}, {&cg, libCoreGraphics}, {&objcLib, libObjC}, {new(uintptr), libAppKit}} {
		h, err := purego.Dlopen(l.path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			return unavailable(fmt.Errorf("cannot load %s: %w", l.path, err))
		}
		*l.dst = h
	}
	for _, b := range []binding{
		{&cf, &cfRetain, "CFRetain"}, {&cf, &cfRelease, "CFRelease"}, {&cf, &cfEqual, "CFEqual"}, {&cf, &cfHash, "CFHash"},
		{&cf, &cfGetTypeID, "CFGetTypeID"}, {&cf, &cfStringGetTypeID, "CFStringGetTypeID"},
		{&cf, &cfNumberGetTypeID, "CFNumberGetTypeID"}, {&cf, &cfBooleanGetTypeID, "CFBooleanGetTypeID"},
		{&cf, &cfArrayGetTypeID, "CFArrayGetTypeID"}, {&cf, &cfStringCreateWithBytes, "CFStringCreateWithBytes"},
		{&cf, &cfStringGetLength, "CFStringGetLength"}, {&cf, &cfStringGetBytes, "CFStringGetBytes"},
		{&cf, &cfNumberCreate, "CFNumberCreate"}, {&cf, &cfNumberGetValue, "CFNumberGetValue"},
		{&cf, &cfBooleanGetValue, "CFBooleanGetValue"}, {&cf, &cfArrayGetCount, "CFArrayGetCount"},
		{&cf, &cfArrayGetValueAtIndex, "CFArrayGetValueAtIndex"}, {&cf, &cfArrayCreate, "CFArrayCreate"},
		{&cf, &cfDictionaryCreate, "CFDictionaryCreate"},
		{&cf, &cfRunLoopGetCurrent, "CFRunLoopGetCurrent"}, {&cf, &cfRunLoopRun, "CFRunLoopRun"},
		{&cf, &cfRunLoopStop, "CFRunLoopStop"}, {&cf, &cfRunLoopAddSource, "CFRunLoopAddSource"},
		{&cf, &cfRunLoopRemoveSource, "CFRunLoopRemoveSource"}, {&cf, &cfRunLoopSourceCreate, "CFRunLoopSourceCreate"},
		{&cf, &cfRunLoopSourceSignal, "CFRunLoopSourceSignal"}, {&cf, &cfRunLoopWakeUp, "CFRunLoopWakeUp"},

		{&as, &axUIElementCreateApplication, "AXUIElementCreateApplication"},
		{&as, &axUIElementCreateSystemWide, "AXUIElementCreateSystemWide"},
		{&as, &axUIElementCopyElementAtPosition, "AXUIElementCopyElementAtPosition"},
		{&as, &axUIElementCopyAttributeValue, "AXUIElementCopyAttributeValue"},
		{&as, &axUIElementCopyMultipleAttributeValues, "AXUIElementCopyMultipleAttributeValues"},
		{&as, &axUIElementCopyActionNames, "AXUIElementCopyActionNames"},
		{&as, &axUIElementIsAttributeSettable, "AXUIElementIsAttributeSettable"},
		{&as, &axUIElementSetAttributeValue, "AXUIElementSetAttributeValue"},
		{&as, &axUIElementPerformAction, "AXUIElementPerformAction"},
		{&as, &axUIElementSetMessagingTimeout, "AXUIElementSetMessagingTimeout"},
		{&as, &axUIElementGetPid, "AXUIElementGetPid"}, {&as, &axUIElementGetTypeID, "AXUIElementGetTypeID"},
		{&as, &axValueGetType, "AXValueGetType"}, {&as, &axValueGetValue, "AXValueGetValue"},
		{&as, &axValueGetTypeID, "AXValueGetTypeID"}, {&as, &axValueCreate, "AXValueCreate"},
		{&as, &axIsProcessTrustedWithOptions, "AXIsProcessTrustedWithOptions"},
		{&as, &axObserverCreate, "AXObserverCreate"}, {&as, &axObserverAddNotification, "AXObserverAddNotification"},
		{&as, &axObserverRemoveNotification, "AXObserverRemoveNotification"},
		{&as, &axObserverGetRunLoopSource, "AXObserverGetRunLoopSource"},

		{&cg, &cgEventCreateMouseEvent, "CGEventCreateMouseEvent"},
		{&cg, &cgEventCreateKeyboardEvent, "CGEventCreateKeyboardEvent"},
		{&cg, &cgEventKeyboardSetUnicodeString, "CGEventKeyboardSetUnicodeString"},
		{&cg, &cgEventSetFlags, "CGEventSetFlags"}, {&cg, &cgEventSetIntegerValueField, "CGEventSetIntegerValueField"},
		{&cg, &cgEventPost, "CGEventPost"},
		{&cg, &cgEventTapCreate, "CGEventTapCreate"}, {&cg, &cgEventTapEnable, "CGEventTapEnable"},
		{&cf, &cfMachPortCreateRunLoopSource, "CFMachPortCreateRunLoopSource"}, {&cf, &cfMachPortInvalidate, "CFMachPortInvalidate"},
		{&cg, &cgEventGetLocation, "CGEventGetLocation"}, {&cg, &cgEventGetFlags, "CGEventGetFlags"},
		{&cg, &cgEventGetIntegerValueField, "CGEventGetIntegerValueField"},
		{&cg, &cgEventKeyboardGetUnicodeString, "CGEventKeyboardGetUnicodeString"},
		{&cg, &cgMainDisplayID, "CGMainDisplayID"}, {&cg, &cgDisplayBounds, "CGDisplayBounds"},
		{&cg, &cgGetActiveDisplayList, "CGGetActiveDisplayList"},
		{&cg, &cgImageGetWidth, "CGImageGetWidth"}, {&cg, &cgImageGetHeight, "CGImageGetHeight"},
		{&cg, &cgImageGetBytesPerRow, "CGImageGetBytesPerRow"}, {&cg, &cgImageGetBitsPerPixel, "CGImageGetBitsPerPixel"},
		{&cg, &cgImageGetBitsPerComponent, "CGImageGetBitsPerComponent"}, {&cg, &cgImageGetBitmapInfo, "CGImageGetBitmapInfo"},
		{&cg, &cgImageGetDataProvider, "CGImageGetDataProvider"}, {&cg, &cgDataProviderCopyData, "CGDataProviderCopyData"},
		{&cf, &cfDataGetBytePtr, "CFDataGetBytePtr"}, {&cf, &cfDataGetLength, "CFDataGetLength"},

		{&objcLib, &objcAutoreleasePoolPush, "objc_autoreleasePoolPush"},
		{&objcLib, &objcAutoreleasePoolPop, "objc_autoreleasePoolPop"},
	} {
		sym, err := purego.Dlsym(*b.lib, b.name)
		if err != nil {
			return unavailable(fmt.Errorf("missing function %s: %w", b.name, err))
		}
		purego.RegisterFunc(b.fn, sym)
	}
	bindOptional([]binding{
		{&cg, &cgWindowListCreateImage, "CGWindowListCreateImage"},
		{&cg, &cgPreflightScreenCaptureAccess, "CGPreflightScreenCaptureAccess"},
	})
	for _, s := range []symbol{
		{&cf, &kCFTypeArrayCallBacks, "kCFTypeArrayCallBacks", false},
		{&cf, &kCFTypeDictionaryKeyCallBacks, "kCFTypeDictionaryKeyCallBacks", false},
		{&cf, &kCFTypeDictionaryValueCallBacks, "kCFTypeDictionaryValueCallBacks", false},
		{&cf, &kCFBooleanTrue, "kCFBooleanTrue", true}, {&cf, &kCFBooleanFalse, "kCFBooleanFalse", true},
		{&cf, &kCFRunLoopDefaultMode, "kCFRunLoopDefaultMode", true},
		{&as, &kAXTrustedCheckOptionPrompt, "kAXTrustedCheckOptionPrompt", true},
	} {
		sym, err := purego.Dlsym(*s.lib, s.name)
		if err != nil {
			return unavailable(fmt.Errorf("missing symbol %s: %w", s.name, err))
		}
		*s.dst = sym
		if s.deref {
			// Read through &sym: converting sym itself to a pointer trips vet's unsafeptr check.
			*s.dst = **(**uintptr)(unsafe.Pointer(&sym))
		}
	}
	typeString, typeNumber, typeBoolean, typeArray = cfStringGetTypeID(), cfNumberGetTypeID(), cfBooleanGetTypeID(), cfArrayGetTypeID()
	typeAXValue, typeAXElement = axValueGetTypeID(), axUIElementGetTypeID()
	return nil
}

// bindOptional binds each function the library has and leaves the others nil.
func bindOptional(bs []binding) {
	for _, b := range bs {
		if sym, err := purego.Dlsym(*b.lib, b.name); err == nil {
			purego.RegisterFunc(b.fn, sym)
		}
	}
}

func unavailable(err error) *model.Error {
	return model.Errorf(model.CodeUnavailable,
		"The macOS accessibility frameworks could not be loaded: run axbus on macOS 12 or later, or use --backend sim.",
		"%v", err).Wrap(err)
}
