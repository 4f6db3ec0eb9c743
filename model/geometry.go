package model

// Rect is a rectangle in global screen coordinates (points on macOS, pixels on X11).
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Center is the middle of r, where a pointer click lands.
func (r Rect) Center() (x, y float64) { return r.X + r.W/2, r.Y + r.H/2 }

// Touches reports whether r and c overlap or share an edge. An element on the clip's edge
// is kept, so the comparison is inclusive.
func (r Rect) Touches(c Rect) bool {
	return r.X <= c.X+c.W && c.X <= r.X+r.W && r.Y <= c.Y+c.H && c.Y <= r.Y+r.H
}

// Intersect is the common part of r and c; it may be empty.
func (r Rect) Intersect(c Rect) Rect {
	x0, y0 := max(r.X, c.X), max(r.Y, c.Y)
	x1, y1 := min(r.X+r.W, c.X+c.W), min(r.Y+r.H, c.Y+c.H)
	return Rect{X: x0, Y: y0, W: max(0, x1-x0), H: max(0, y1-y0)}
}

// Holds reports whether inner lies wholly inside r, edges included.
func (r Rect) Holds(inner Rect) bool {
	return inner.X >= r.X && inner.Y >= r.Y && inner.X+inner.W <= r.X+r.W && inner.Y+inner.H <= r.Y+r.H
}

// Bounds is one element's bounds as ReadBounds found them: Rect is nil when the platform reports
// none, Offscreen is set when it reports the element as not on screen.
type Bounds struct {
	Rect      *Rect
	Offscreen bool
	Err       error
}
