package ax

import (
	"context"
	"image"
	"unsafe"

	"github.com/axbus/axbus/model"
)

// Reading the screen through CoreGraphics: the displays' bounds (CGGetActiveDisplayList,
// CGDisplayBounds) and their pixels as shown, every window composed (CGWindowListCreateImage of
// the on-screen windows). Both are in global points with the origin at the main display's
// top-left corner, the coordinates AX reports, so a window's AX frame can be captured as it is.
//
// CGWindowListCreateImage is deprecated from macOS 14 and obsoleted in the macOS 15 SDK:
// ScreenCaptureKit replaces it, but takes only completion handlers (blocks, one C callback
// each, which purego_test.go keeps a fixed set) and async streams. The function still ships
// for binaries built against older SDKs, as a purego binary is; where it is missing or answers
// NULL, Capture is NOT_SUPPORTED. From macOS 15 the system may also ask the user again, now and
// then, whether axbus may keep recording the screen.

const (
	windowListOnScreenOnly = 1 << 0 // kCGWindowListOptionOnScreenOnly
	nullWindowID           = 0      // kCGNullWindowID: every window of the list, not one
	// windowImageDefault is kCGWindowImageDefault: the displays' own resolution (two pixels per
	// point on Retina), which ToRGBA averages down to points.
	windowImageDefault = 0
	// maxDisplays bounds the displays listed; macOS drives far fewer.
	maxDisplays = 32
)

// ScreenRecordingSuggestion is what to do when this process may not record the screen.
const ScreenRecordingSuggestion = "Allow axbus (or the terminal that runs it) in System Settings > Privacy & Security > " +
	"Screen & System Audio Recording (Screen Recording before macOS 15), then restart it."

// ScreenBounds is the union of the active displays' bounds, or the main display's when they
// cannot be listed.
func (b *Backend) ScreenBounds(ctx context.Context) (model.Rect, error) {
	if err := b.checkOpen(); err != nil {
		return model.Rect{}, err
	}
	if ctx.Err() != nil {
		return model.Rect{}, errEnded(ctx, "reading the displays")
	}
	var ids [maxDisplays]uint32
	var n uint32
	var displays []model.Rect
	if cgGetActiveDisplayList(maxDisplays, &ids[0], &n) == 0 {
		for _, id := range ids[:min(n, maxDisplays)] {
			displays = append(displays, rectOf(cgDisplayBounds(id)))
		}
	}
	u := DisplayUnion(displays)
	if u.Empty() {
		u = rectOf(cgDisplayBounds(cgMainDisplayID()))
	}
	if u.Empty() {
		return model.Rect{}, model.Errorf(model.CodeUnavailable,
			"Run axbus in the logged-in user's GUI session with a display attached (not over ssh alone).", "no display is active")
	}
	return u, nil
}

// Capture reads the pixels of rect (global points) as the screen shows them, one pixel per
// point. Without the Screen Recording permission macOS would answer the wallpaper and the menu
// bar alone, so the permission is checked first (CGPreflightScreenCaptureAccess, which never
// prompts).
func (b *Backend) Capture(ctx context.Context, rect model.Rect) (*image.RGBA, error) {
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, errEnded(ctx, "the screen capture")
	}
	w, h := CaptureSize(rect)
	if w <= 0 || h <= 0 {
		return nil, model.Errorf(model.CodeBadRequest, "Ask for a window or a region with a size.", "cannot capture %v: it is empty", rect)
	}
	if cgPreflightScreenCaptureAccess != nil && !cgPreflightScreenCaptureAccess() {
		return nil, model.Errorf(model.CodePermissionDenied, ScreenRecordingSuggestion,
			"this process may not record the screen (Screen Recording permission)")
	}
	if cgWindowListCreateImage == nil {
		return nil, errNoCapture("this macOS has no CGWindowListCreateImage")
	}
	var img *image.RGBA
	var err error
	withPool(func() { // CoreGraphics may autorelease what it uses on the way
		ref := cgWindowListCreateImage(cgRect{rect.X, rect.Y, rect.W, rect.H}, windowListOnScreenOnly, nullWindowID, windowImageDefault)
		if ref == 0 {
			err = errNoCapture("CGWindowListCreateImage returned no image")
			return
		}
		defer release(ref)
		img, err = imagePixels(ref, w, h)
	})
	return img, err
}

// imagePixels copies a CGImage's pixels out as an *image.RGBA of w x h points.
func imagePixels(ref uintptr, w, h int) (*image.RGBA, error) {
	l, err := LayoutOf(cgImageGetBitmapInfo(ref), int(cgImageGetBitsPerPixel(ref)), int(cgImageGetBitsPerComponent(ref)))
	if err != nil {
		return nil, err
	}
	provider := cgImageGetDataProvider(ref) // borrowed from the image
	if provider == 0 {
		return nil, errNoCapture("the captured image has no data provider")
	}
	data := cgDataProviderCopyData(provider)
	if data == 0 {
		return nil, errNoCapture("the captured image's pixels cannot be copied")
	}
	defer release(data)
	p, n := cfDataGetBytePtr(data), cfDataGetLength(data)
	if p == nil || n <= 0 {
		return nil, errNoCapture("the captured image has no pixels")
	}
	src := unsafe.Slice(p, n) // C memory, read before data is released
	return ToRGBA(src, int(cgImageGetWidth(ref)), int(cgImageGetHeight(ref)), int(cgImageGetBytesPerRow(ref)), l, w, h)
}

func errNoCapture(why string) *model.Error {
	return model.Errorf(model.CodeNotSupported,
		"This macOS does not let axbus capture the screen with CoreGraphics (ScreenCaptureKit is not bound yet): "+
			"check the Screen Recording permission, or read the window's text with inspect instead.",
		"cannot capture the screen: %s", why)
}

// rectOf is a CGRect as an model.Rect.
func rectOf(r cgRect) model.Rect { return model.Rect{X: r.x, Y: r.y, W: r.w, H: r.h} }
