package ocr

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/ebitengine/purego"
	"github.com/ebitengine/purego/objc"

	"github.com/axbus/axbus/observer"
)

// Vision recognises text with Apple's Vision framework (macOS 10.15+), through purego/objc as
// the ax backend calls AppKit: the PNG becomes a CGImage (CGImageCreateWithPNGDataProvider), a
// VNImageRequestHandler performs one VNRecognizeTextRequest on it (accurate, with language
// correction), and each VNRecognizedTextObservation gives its top candidate's string and
// confidence and its bounding box, which VisionBox turns into pixels from the top-left corner.
// performRequests:error: is synchronous: it runs on a thread of its own, and an ended context
// cancels the request (-[VNRequest cancel]).
type Vision struct{}

var _ observer.TextRecognizer = (*Vision)(nil)

// The frameworks Vision needs. Loading Vision registers its classes with the Objective-C runtime,
// where objc.GetClass finds them.
const (
	libCoreFoundation = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
	libCoreGraphics   = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"
	libFoundation     = "/System/Library/Frameworks/Foundation.framework/Foundation"
	libVision         = "/System/Library/Frameworks/Vision.framework/Vision"
	libObjC           = "/usr/lib/libobjc.A.dylib"
)

// The C functions, declared as in the ax backend: CFIndex int64, size_t uint64, C bool bool,
// CGColorRenderingIntent int32.
var (
	cfDataCreate                     func(alloc uintptr, bytes *byte, n int64) uintptr
	cfRelease                        func(ref uintptr)
	cgDataProviderCreateWithCFData   func(data uintptr) uintptr
	cgImageCreateWithPNGDataProvider func(provider uintptr, decode *float64, interpolate bool, intent int32) uintptr
	cgImageGetWidth                  func(img uintptr) uint64
	cgImageGetHeight                 func(img uintptr) uint64
	objcAutoreleasePoolPush          func() uintptr
	objcAutoreleasePoolPop           func(pool uintptr)
)

// cgRect is a CGRect returned by value, flattened: four doubles, which purego returns from d0-d3
// on arm64 (objc_msgSend) and through memory on amd64 (objc.Send uses objc_msgSend_stret for a
// struct over 16 bytes).
type cgRect struct{ x, y, w, h float64 }

// The VNRequestTextRecognitionLevel values.
const recognitionAccurate = 0

// renderingIntentDefault is kCGRenderingIntentDefault.
const renderingIntentDefault = 0

// visionNames are the classes and selectors, looked up once at load.
var visionNames struct {
	textRequest, handler, array, dictionary         objc.Class
	alloc, init, release, dict, arrayWithObject     objc.SEL
	setLevel, setCorrection, initWithImage, perform objc.SEL
	results, count, at, topCandidates, str, confid  objc.SEL
	boundingBox, cancel, describe, utf8             objc.SEL
}

var loaded struct {
	once sync.Once
	err  error
}

// NewVision loads Vision and the frameworks it needs, once; NOT_SUPPORTED when this macOS has
// no text recognition.
func NewVision() (*Vision, error) {
	loaded.once.Do(func() { loaded.err = load() })
	if loaded.err != nil {
		return nil, loaded.err
	}
	return &Vision{}, nil
}

func load() (err error) {
	defer func() {
		if r := recover(); r != nil { // purego panics on a declaration it cannot call
			err = errNoVision(fmt.Sprintf("cannot bind the frameworks: %v", r))
		}
	}()
	libs := map[string]uintptr{}
	for _, path := range []string{libCoreFoundation, libCoreGraphics, libFoundation, libVision, libObjC} {
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			return errNoVision(fmt.Sprintf("cannot load %s: %v", path, err))
		}
		libs[path] = h
	}
	for _, b := range []struct {
		lib  string
		fn   any
		name string
	}{
		{libCoreFoundation, &cfDataCreate, "CFDataCreate"}, {libCoreFoundation, &cfRelease, "CFRelease"},
		{libCoreGraphics, &cgDataProviderCreateWithCFData, "CGDataProviderCreateWithCFData"},
		{libCoreGraphics, &cgImageCreateWithPNGDataProvider, "CGImageCreateWithPNGDataProvider"},
		{libCoreGraphics, &cgImageGetWidth, "CGImageGetWidth"}, {libCoreGraphics, &cgImageGetHeight, "CGImageGetHeight"},
		{libObjC, &objcAutoreleasePoolPush, "objc_autoreleasePoolPush"}, {libObjC, &objcAutoreleasePoolPop, "objc_autoreleasePoolPop"},
	} {
		sym, err := purego.Dlsym(libs[b.lib], b.name)
		if err != nil {
			return errNoVision(fmt.Sprintf("missing function %s: %v", b.name, err))
		}
		purego.RegisterFunc(b.fn, sym)
	}
	n := &visionNames
	n.textRequest, n.handler = objc.GetClass("VNRecognizeTextRequest"), objc.GetClass("VNImageRequestHandler")
	n.array, n.dictionary = objc.GetClass("NSArray"), objc.GetClass("NSDictionary")
	if n.textRequest == 0 || n.handler == 0 || n.array == 0 || n.dictionary == 0 {
		return errNoVision("Vision has no VNRecognizeTextRequest (macOS 10.15 or later has)")
	}
	for _, s := range []struct {
		dst  *objc.SEL
		name string
	}{
		{&n.alloc, "alloc"}, {&n.init, "init"}, {&n.release, "release"}, {&n.dict, "dictionary"},
		{&n.arrayWithObject, "arrayWithObject:"}, {&n.setLevel, "setRecognitionLevel:"},
		{&n.setCorrection, "setUsesLanguageCorrection:"}, {&n.initWithImage, "initWithCGImage:options:"},
		{&n.perform, "performRequests:error:"}, {&n.results, "results"}, {&n.count, "count"},
		{&n.at, "objectAtIndex:"}, {&n.topCandidates, "topCandidates:"}, {&n.str, "string"},
		{&n.confid, "confidence"}, {&n.boundingBox, "boundingBox"}, {&n.cancel, "cancel"},
		{&n.describe, "localizedDescription"}, {&n.utf8, "UTF8String"},
	} {
		*s.dst = objc.RegisterName(s.name)
	}
	return nil
}

// Recognize recognises the lines of text in a PNG, with boxes in its pixels from the top-left
// corner. When ctx ends first the request is cancelled and ctx's error returned at once.
func (v *Vision) Recognize(ctx context.Context, png []byte) ([]model.RecognizedLine, error) {
	if len(png) == 0 {
		return nil, model.Errorf(model.CodeBadRequest, "Pass a PNG image.", "no image to recognise text in")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	j := &visionJob{}
	type result struct {
		lines []model.RecognizedLine
		err   error
	}
	done := make(chan result, 1) // never blocks the job once nobody waits
	go func() {
		lines, err := j.run(png)
		done <- result{lines, err}
	}()
	select {
	case r := <-done:
		return r.lines, r.err
	case <-ctx.Done():
		j.cancel()
		return nil, ctx.Err()
	}
}

// visionJob is one recognition: its request while it runs, so that it can be cancelled.
type visionJob struct {
	mu       sync.Mutex
	req      objc.ID // 0 once released
	canceled bool
}

// withPool runs fn inside an autorelease pool, on one thread (a pool belongs to its thread).
func withPool(fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := objcAutoreleasePoolPush()
	defer objcAutoreleasePoolPop(pool)
	fn()
}

// run performs the request and reads its observations.
func (j *visionJob) run(png []byte) (lines []model.RecognizedLine, err error) {
	withPool(func() { lines, err = j.perform(png) })
	return lines, err
}

// perform does run's work; the caller holds a pool.
func (j *visionJob) perform(png []byte) ([]model.RecognizedLine, error) {
	n := &visionNames
	img, w, h, err := imageOfPNG(png)
	if err != nil {
		return nil, err
	}
	defer cfRelease(img)
	req := objc.ID(n.textRequest).Send(n.alloc).Send(n.init) // +1
	if req == 0 {
		return nil, errVision("cannot create a VNRecognizeTextRequest")
	}
	if !j.start(req) {
		return nil, context.Canceled
	}
	defer j.end()
	req.Send(n.setLevel, int64(recognitionAccurate))
	req.Send(n.setCorrection, true)
	handler := objc.ID(n.handler).Send(n.alloc).Send(n.initWithImage, img, objc.ID(n.dictionary).Send(n.dict)) // +1
	if handler == 0 {
		return nil, errVision("cannot create a VNImageRequestHandler for the image")
	}
	defer handler.Send(n.release)
	var nsErr objc.ID
	if !objc.Send[bool](handler, n.perform, objc.ID(n.array).Send(n.arrayWithObject, req), &nsErr) {
		if j.wasCanceled() {
			return nil, context.Canceled
		}
		why := "no reason given"
		if nsErr != 0 {
			why = nsString(nsErr.Send(n.describe))
		}
		return nil, errVision("Vision failed: " + why)
	}
	results := req.Send(n.results)
	if results == 0 {
		return nil, nil
	}
	var out []model.RecognizedLine
	for i := range objc.Send[uint64](results, n.count) {
		obs := results.Send(n.at, i)
		if obs == 0 {
			continue
		}
		cands := obs.Send(n.topCandidates, uint64(1))
		if cands == 0 || objc.Send[uint64](cands, n.count) == 0 {
			continue
		}
		best := cands.Send(n.at, uint64(0))
		if best == 0 {
			continue
		}
		r := objc.Send[cgRect](obs, n.boundingBox)
		if l, ok := VisionLine(nsString(best.Send(n.str)), float64(objc.Send[float32](best, n.confid)), VisionBox(r.x, r.y, r.w, r.h, w, h)); ok {
			out = append(out, l)
		}
	}
	return out, nil
}

// imageOfPNG decodes a PNG into a CGImage (+1) and gives its size in pixels.
func imageOfPNG(png []byte) (img uintptr, w, h int, err error) {
	data := cfDataCreate(0, &png[0], int64(len(png))) // a copy
	if data == 0 {
		return 0, 0, 0, errVision("cannot copy the image")
	}
	defer cfRelease(data)
	provider := cgDataProviderCreateWithCFData(data)
	if provider == 0 {
		return 0, 0, 0, errVision("cannot read the image")
	}
	defer cfRelease(provider)
	img = cgImageCreateWithPNGDataProvider(provider, nil, false, renderingIntentDefault)
	if img == 0 {
		return 0, 0, 0, model.Errorf(model.CodeBadRequest, "Pass a PNG image.", "the image is not a PNG CoreGraphics can decode")
	}
	w, h = int(cgImageGetWidth(img)), int(cgImageGetHeight(img))
	if w <= 0 || h <= 0 {
		cfRelease(img)
		return 0, 0, 0, model.Errorf(model.CodeBadRequest, "Pass a PNG image with pixels.", "the image is empty")
	}
	return img, w, h, nil
}

// start records the running request; false when the job was cancelled before it began (the
// request is then released at once).
func (j *visionJob) start(req objc.ID) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.canceled {
		req.Send(visionNames.release)
		return false
	}
	j.req = req
	return true
}

// end releases the request, under the lock cancel takes, so that cancel never reaches a freed one.
func (j *visionJob) end() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.req != 0 {
		j.req.Send(visionNames.release)
		j.req = 0
	}
}

// cancel stops the request if it runs (-[VNRequest cancel] is made to be called from another
// thread), or keeps it from starting.
func (j *visionJob) cancel() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.canceled = true
	if j.req != 0 {
		withPool(func() { j.req.Send(visionNames.cancel) })
	}
}

func (j *visionJob) wasCanceled() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.canceled
}

// nsString copies an NSString out; "" for nil.
func nsString(s objc.ID) string {
	if s == 0 {
		return ""
	}
	return objc.Send[string](s, visionNames.utf8)
}

func errNoVision(why string) *model.Error {
	return model.Errorf(model.CodeNotSupported, "Run axbus on macOS 10.15 or later, or install Tesseract (brew install tesseract).",
		"no text recognition with Vision: %s", why)
}

func errVision(why string) *model.Error {
	return model.Errorf(model.CodeInternal, "Retry; if it persists, report it with the daemon's log.", "text recognition: %s", why)
}
