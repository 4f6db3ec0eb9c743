package screen

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// The screenshot limits, each said once.
const (
	// DefaultShotSide is the longest side of a screenshot unless the request asks otherwise.
	DefaultShotSide = 1920
	// DefaultShotBytes is the largest PNG a screenshot is unless the request asks otherwise:
	// past it the image is scaled down further.
	DefaultShotBytes = 2 << 20
	// MaxShotBytes is the largest PNG a request may ask for.
	MaxShotBytes = 64 << 20
)

// Request asks for the pixels of an app's window (App, Window as inspect takes them),
// of a region of the display (Region, global coordinates), or of the whole display (neither).
type Request struct {
	App    model.AppQuery
	Window string
	Region *model.Rect
	// MaxSide bounds the longest side (0: DefaultShotSide; -1: full size); MaxBytes the PNG's
	// size (0: DefaultShotBytes).
	MaxSide, MaxBytes int
	// Admit, when set, is asked for a turn once the area is known, before any pixel is read:
	// pixelBytes is the capture's size (w*h*4), which the work holds several times over. Its
	// error fails the screenshot; release ends the turn when the PNG is made.
	Admit func(ctx context.Context, pixelBytes int64) (release func(), err error)
}

// Shot is a PNG of a part of the screen, with what maps its pixels back to the desktop: a
// pixel (px, py) of the image is the global point Bounds.X + px/Scale, Bounds.Y + py/Scale.
type Shot struct {
	PNG           []byte
	Width, Height int
	Scale         float64
	Bounds        model.Rect
	App           *model.AppRef
	Window        *model.WindowRef
	// Blanked counts the secure fields painted over before the image was encoded.
	Blanked int
}

// Screenshot captures what req names, paints over every secure field it shows (their pixels
// show a password's length), scales it down to the request's limits and encodes it as PNG.
func Screenshot(ctx context.Context, o *observer.Observer, req Request) (*Shot, error) {
	sr, ok := o.Backend().(observer.ScreenReader)
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported,
			"Run the daemon on a desktop whose backend reads the screen (AT-SPI on X11, macOS).", "this backend cannot read the screen")
	}
	maxBytes := req.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultShotBytes
	}
	if maxBytes < 0 || maxBytes > MaxShotBytes || req.MaxSide < -1 {
		return nil, model.Errorf(model.CodeBadRequest, "Give max_bytes from 1 to 64 MiB, max_side -1 (full size) or more.",
			"screenshot limits out of range")
	}
	screen, err := sr.ScreenBounds(ctx)
	if err != nil {
		return nil, err
	}
	shot := &Shot{}
	var rect model.Rect
	switch {
	case req.App.Name != "" || req.App.PID != 0:
		app, win, err := o.Window(ctx, req.App, req.Window)
		if err != nil {
			return nil, err
		}
		if win.Bounds == nil {
			return nil, model.Errorf(model.CodeNotSupported, "Take a region of the display (region) instead.",
				"window %q has no bounds", win.Title)
		}
		ref, wref := app.Ref(), win.RefOf()
		shot.App, shot.Window, rect = &ref, &wref, *win.Bounds
	case req.Region != nil:
		rect = *req.Region
	default:
		rect = screen
	}
	rect = pixelRect(rect.Intersect(screen))
	if rect.Empty() {
		return nil, model.Errorf(model.CodeBadRequest, "Ask for a window or a region that is on the display.",
			"nothing of the display is in %v", rect)
	}
	if req.Admit != nil {
		release, err := req.Admit(ctx, int64(rect.W)*int64(rect.H)*4)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	secure, err := secureFields(ctx, o, rect)
	if err != nil {
		return nil, err
	}
	img, err := sr.Capture(ctx, rect)
	if err != nil {
		return nil, err
	}
	shot.Blanked = Blank(img, rect, secure)
	shot.Bounds = rect
	side := req.MaxSide
	if side == 0 {
		side = DefaultShotSide
	}
	shot.PNG, shot.Width, shot.Height, shot.Scale, err = EncodeWithin(ctx, img, side, maxBytes)
	if err != nil {
		return nil, err
	}
	return shot, nil
}

// pixelRect is r on whole pixels, covering it.
func pixelRect(r model.Rect) model.Rect {
	x, y := math.Floor(r.X), math.Floor(r.Y)
	return model.Rect{X: x, Y: y, W: math.Ceil(r.X+r.W) - x, H: math.Ceil(r.Y+r.H) - y}
}

// secureFields are the bounds of the secure fields of every window that shows in rect. A window
// that cannot be walked fails the screenshot: it may show a password's dots.
func secureFields(ctx context.Context, o *observer.Observer, rect model.Rect) ([]model.Rect, error) {
	apps, err := o.Apps(ctx)
	if err != nil {
		return nil, err
	}
	var out []model.Rect
	for _, app := range apps {
		wins, err := o.Backend().Windows(ctx, app.PID)
		if err != nil {
			continue // gone since it was listed
		}
		for _, w := range wins {
			if w.Bounds != nil && !w.Bounds.Touches(rect) {
				continue
			}
			walk := observer.Walk(ctx, o.Backend(), w.Ref, observer.WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true})
			if len(walk.Nodes) == 0 && ctx.Err() != nil {
				return nil, shotTimeout(ctx) // the request's time, not the app, ran out (CI saw a storm's told APP_NOT_RESPONDING)
			}
			if len(walk.Nodes) == 0 && w.Bounds != nil {
				return nil, model.Errorf(model.CodeAppNotResponding, "Retry, or take a window of another app.",
					"could not read window %q of %s to find its secure fields", w.Title, app.Name).With("pid", app.PID)
			}
			for _, n := range walk.Nodes {
				if n.Secure && n.Bounds != nil {
					out = append(out, *n.Bounds)
				}
			}
		}
	}
	return out, nil
}

// blankColour paints over secure fields: a flat grey no field draws.
var blankColour = color.RGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xff}

// Blank paints each of secure (global coordinates) that shows in img, the capture of rect, with
// a flat colour, and counts those it painted.
func Blank(img *image.RGBA, rect model.Rect, secure []model.Rect) int {
	n := 0
	for _, s := range secure {
		r := pixelRect(s.Intersect(rect))
		if r.Empty() {
			continue
		}
		area := image.Rect(int(r.X-rect.X), int(r.Y-rect.Y), int(r.X-rect.X+r.W), int(r.Y-rect.Y+r.H))
		draw.Draw(img, area.Intersect(img.Bounds()), &image.Uniform{C: blankColour}, image.Point{}, draw.Src)
		n++
	}
	return n
}

// EncodeWithin encodes img as PNG, scaled down so that its longest side is at most maxSide (-1:
// any) and the PNG at most maxBytes: scaled further, by the square root of the excess, until it
// fits. It returns the PNG, its size and the scale (image pixels per screen pixel). It stops
// when ctx ends (TIMEOUT), between rows of the scaling and between writes of the PNG.
func EncodeWithin(ctx context.Context, img *image.RGBA, maxSide, maxBytes int) (data []byte, w, h int, scale float64, err error) {
	b := img.Bounds()
	scale = 1
	if long := max(b.Dx(), b.Dy()); maxSide > 0 && long > maxSide {
		scale = float64(maxSide) / float64(long)
	}
	for range 8 {
		w, h = max(1, int(math.Round(float64(b.Dx())*scale))), max(1, int(math.Round(float64(b.Dy())*scale)))
		scaled, err := ScaleDown(ctx, img, w, h)
		if err != nil {
			return nil, 0, 0, 0, err
		}
		var buf bytes.Buffer
		if err := png.Encode(ctxWriter{ctx, &buf}, scaled); err != nil {
			if ctx.Err() != nil {
				return nil, 0, 0, 0, shotTimeout(ctx)
			}
			return nil, 0, 0, 0, model.Errorf(model.CodeInternal, "", "encoding the screenshot: %v", err)
		}
		if buf.Len() <= maxBytes {
			return buf.Bytes(), w, h, float64(w) / float64(b.Dx()), nil
		}
		scale *= math.Sqrt(float64(maxBytes)/float64(buf.Len())) * 0.95
	}
	return nil, 0, 0, 0, model.Errorf(model.CodeBadRequest, "Ask for a larger max_bytes.",
		"the screenshot does not fit in %d bytes", maxBytes)
}

// ScaleDown is img at w x h (no larger than it), each pixel the mean of the pixels it covers;
// TIMEOUT when ctx ends first (it looks between rows).
func ScaleDown(ctx context.Context, img *image.RGBA, w, h int) (*image.RGBA, error) {
	b := img.Bounds()
	if w >= b.Dx() && h >= b.Dy() {
		return img, nil
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		if ctx.Err() != nil {
			return nil, shotTimeout(ctx)
		}
		y0, y1 := y*b.Dy()/h, max((y+1)*b.Dy()/h, y*b.Dy()/h+1)
		for x := range w {
			x0, x1 := x*b.Dx()/w, max((x+1)*b.Dx()/w, x*b.Dx()/w+1)
			var r, g, bl, a, n uint32
			for sy := y0; sy < y1; sy++ {
				row := img.Pix[(sy)*img.Stride:]
				for sx := x0; sx < x1; sx++ {
					p := row[sx*4 : sx*4+4]
					r, g, bl, a, n = r+uint32(p[0]), g+uint32(p[1]), bl+uint32(p[2]), a+uint32(p[3]), n+1
				}
			}
			o := out.Pix[y*out.Stride+x*4:]
			o[0], o[1], o[2], o[3] = uint8(r/n), uint8(g/n), uint8(bl/n), uint8(a/n)
		}
	}
	return out, nil
}

// ctxWriter fails its writes once ctx ends: the PNG encoder writes as it compresses, so a
// screenshot past its deadline stops encoding.
type ctxWriter struct {
	ctx context.Context
	w   *bytes.Buffer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// shotTimeout is the error of a screenshot whose request's time ran out while it worked.
func shotTimeout(ctx context.Context) error {
	return model.Errorf(model.CodeTimeout, "Take a smaller area (a window, a region, max_side), or retry when the daemon is less busy.",
		"the screenshot ran out of time: %v", context.Cause(ctx))
}
