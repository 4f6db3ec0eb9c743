package soak

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"
)

// The plot's size: PlotWidth pixels wide, PlotPanelHeight pixels a metric, panels stacked in the
// metrics' order.
const (
	PlotWidth       = 900
	PlotPanelHeight = 180
)

// A panel's layout: the plot area inside its margins, the labels around it.
const (
	marginLeft   = 110
	marginRight  = 16
	marginTop    = 26
	marginBottom = 26
)

var (
	background = color.RGBA{0xff, 0xff, 0xff, 0xff}
	ink        = color.RGBA{0x20, 0x20, 0x20, 0xff}
	frame      = color.RGBA{0xa0, 0xa0, 0xa0, 0xff}
	warmShade  = color.RGBA{0xe6, 0xe6, 0xe6, 0xff}
	seriesInk  = color.RGBA{0x1f, 0x5f, 0xd0, 0xff}
	trendInk   = color.RGBA{0xd0, 0x30, 0x30, 0xff}
	failInk    = color.RGBA{0xc0, 0x10, 0x10, 0xff}
)

// WritePlot writes the samples as a PNG at path: one panel per metric, stacked in their order,
// each with its samples as a line (joined across gaps), the warm-up shaded, the least-squares line
// over the judged window, the metric's name and verdict, and its axes' minimum and maximum.
func (r *Recorder) WritePlot(path string, warmup time.Duration) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.EncodePlot(f, warmup); err != nil {
		f.Close()
		os.Remove(path) // half a PNG is no plot
		return err
	}
	return f.Close()
}

// EncodePlot writes the plot WritePlot writes to w.
func (r *Recorder) EncodePlot(w io.Writer, warmup time.Duration) error {
	if len(r.metrics) == 0 {
		return errors.New("soak: no metrics to plot: give NewRecorder at least one")
	}
	return png.Encode(w, r.render(warmup))
}

// render draws the panels.
func (r *Recorder) render(warmup time.Duration) *image.RGBA {
	samples := r.snapshot()
	verdicts := r.verdicts(samples, warmup)
	img := image.NewRGBA(image.Rect(0, 0, PlotWidth, PlotPanelHeight*len(r.metrics)))
	fill(img, img.Bounds(), background)
	t0, t1 := time.Duration(0), time.Second
	if len(samples) > 0 {
		t0, t1 = samples[0].at, samples[len(samples)-1].at
		if t1 == t0 {
			t1 = t0 + time.Second
		}
	}
	for i := range r.metrics {
		area := image.Rect(marginLeft, i*PlotPanelHeight+marginTop, PlotWidth-marginRight, (i+1)*PlotPanelHeight-marginBottom)
		p := panel{img: img, area: area, t0: t0, t1: t1}
		p.draw(series(samples, i, t0), series(samples, i, warmup), warmup, verdicts[i])
	}
	return img
}

// panel maps one metric's times and values onto its plot area.
type panel struct {
	img    *image.RGBA
	area   image.Rectangle
	t0, t1 time.Duration
	lo, hi float64
}

func (p *panel) x(t time.Duration) int {
	return p.area.Min.X + int(math.Round(float64(t-p.t0)/float64(p.t1-p.t0)*float64(p.area.Dx()-1)))
}

func (p *panel) y(v float64) int {
	return p.area.Max.Y - 1 - int(math.Round((v-p.lo)/(p.hi-p.lo)*float64(p.area.Dy()-1)))
}

// draw draws all of a metric's present values, the judged ones' trend and the verdict.
func (p *panel) draw(all, judged []point, warmup time.Duration, v Verdict) {
	trendSays := fmt.Sprintf("%s over %s", signed(v.Growth)+unit(v.Metric), short(v.Window))
	title, titleInk := fmt.Sprintf("%s: flat, %s <= %s tolerated", v.Metric.label(), trendSays, num(v.Tolerated)), ink
	switch {
	case !v.Judged:
		title, titleInk = fmt.Sprintf("%s: not judged, %d samples after the warm-up", v.Metric.label(), v.Samples), failInk
	case !v.Flat:
		title, titleInk = fmt.Sprintf("%s: not flat, %s > %s tolerated", v.Metric.label(), trendSays, num(v.Tolerated)), failInk
	}
	drawText(p.img, p.area.Min.X, p.area.Min.Y-marginTop+8, title, titleInk)

	if warmup > p.t0 {
		end := min(warmup, p.t1)
		fill(p.img, image.Rect(p.area.Min.X, p.area.Min.Y, p.x(end)+1, p.area.Max.Y), warmShade)
	}
	outline(p.img, p.area.Inset(-1), frame)
	below := p.area.Max.Y + 6
	drawText(p.img, p.area.Min.X, below, short(p.t0), ink)
	if warmup > p.t0 && warmup < p.t1 {
		drawText(p.img, p.x(warmup)+4, below, "warm-up "+short(warmup), ink)
	}
	end := short(p.t1)
	drawText(p.img, p.area.Max.X-textWidth(end), below, end, ink)
	if len(all) == 0 {
		drawText(p.img, p.area.Min.X+8, p.area.Min.Y+8, "no samples", failInk)
		return
	}

	trend := trendLine(judged, v)
	p.lo, p.hi = all[0].v, all[0].v
	for _, q := range slices.Concat(all, trend) {
		p.lo, p.hi = math.Min(p.lo, q.v), math.Max(p.hi, q.v)
	}
	if pad := (p.hi - p.lo) * 0.05; pad > 0 {
		p.lo, p.hi = p.lo-pad, p.hi+pad
	} else {
		p.lo, p.hi = p.lo-1, p.hi+1
	}
	hi, lo := num(p.hi), num(p.lo)
	drawText(p.img, p.area.Min.X-8-textWidth(hi), p.area.Min.Y, hi, ink)
	drawText(p.img, p.area.Min.X-8-textWidth(lo), p.area.Max.Y-textHeight, lo, ink)

	p.polyline(all, seriesInk)
	if len(trend) == 2 {
		p.line(trend[0], trend[1], trendInk)
	}
}

// trendLine is the least-squares line's ends over the judged window: the line through the
// judged samples' mean time and mean value with the verdict's slope. None when not judged.
func trendLine(judged []point, v Verdict) []point {
	if !v.Judged {
		return nil
	}
	var meanT float64
	for _, q := range judged {
		meanT += (q.at - judged[0].at).Hours()
	}
	meanT /= float64(len(judged))
	at := func(t time.Duration) point {
		return point{t, v.Mean + v.SlopePerHour*((t-judged[0].at).Hours()-meanT)}
	}
	return []point{at(judged[0].at), at(judged[len(judged)-1].at)}
}

// polyline joins consecutive samples; a gap (a sample without this metric) shows as a longer
// segment, since only present values are given: the line stays readable across a missed look.
func (p *panel) polyline(ps []point, c color.RGBA) {
	if len(ps) == 1 {
		fill(p.img, image.Rect(p.x(ps[0].at)-1, p.y(ps[0].v)-1, p.x(ps[0].at)+2, p.y(ps[0].v)+2), c)
	}
	for i := 1; i < len(ps); i++ {
		p.line(ps[i-1], ps[i], c)
	}
}

// line draws a segment two pixels thick, clipped to the plot area.
func (p *panel) line(a, b point, c color.RGBA) {
	x0, y0, x1, y1 := p.x(a.at), p.y(a.v), p.x(b.at), p.y(b.v)
	steps := max(abs(x1-x0), abs(y1-y0), 1)
	for s := 0; s <= steps; s++ {
		x := x0 + int(math.Round(float64((x1-x0)*s)/float64(steps)))
		y := y0 + int(math.Round(float64((y1-y0)*s)/float64(steps)))
		fill(p.img, image.Rect(x, y, x+2, y+2).Intersect(p.area), c)
	}
}

// fill paints a rectangle.
func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// outline paints a rectangle's edges, one pixel wide.
func outline(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), c)
	fill(img, image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), c)
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), c)
	fill(img, image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y), c)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// signed writes a growth with its sign.
func signed(v float64) string {
	if v >= 0 {
		return "+" + num(v)
	}
	return num(v)
}

// short writes a time on the plot's axis: 12m, not 12m0s.
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
