package soak

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPlotDrawsAPanelPerMetric(t *testing.T) {
	n := noise(4)
	i := 0
	r := every10s(12*time.Minute, func(at time.Duration) map[string]float64 {
		i++
		values := map[string]float64{"rss_mb": 300 + at.Minutes() + n(2), "goroutines": 120 + n(3)}
		if i%5 != 0 {
			values["fds"] = 40 + n(1)
		}
		return values
	}, strictRSS, goroutines, Metric{Name: "fds", Floor: 5})
	path := filepath.Join(t.TempDir(), "soak.png")
	if err := r.WritePlot(path, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	img := decode(t, path)
	if got, want := img.Bounds().Size(), (image.Point{PlotWidth, 3 * PlotPanelHeight}); got != want {
		t.Fatalf("plot is %v, want %v", got, want)
	}
	for p := range 3 {
		counts := colours(img, image.Rect(0, p*PlotPanelHeight, PlotWidth, (p+1)*PlotPanelHeight))
		if counts[seriesInk] < 200 || counts[trendInk] < 100 || counts[warmShade] < 1000 || counts[ink]+counts[failInk] < 100 {
			t.Errorf("panel %d: %d series, %d trend, %d warm-up and %d text pixels; want a line, its trend, the warm-up and labels",
				p, counts[seriesInk], counts[trendInk], counts[warmShade], counts[ink]+counts[failInk])
		}
	}
	// rss leaks: its panel's title is in the failure's colour, the others' in ink.
	if got := colours(img, image.Rect(0, 0, PlotWidth, marginTop))[failInk]; got == 0 {
		t.Error("the leaking rss panel's title is not drawn as a failure")
	}
	if got := colours(img, image.Rect(0, PlotPanelHeight, PlotWidth, PlotPanelHeight+marginTop))[failInk]; got != 0 {
		t.Errorf("the flat goroutines panel's title has %d failure pixels", got)
	}
}

func TestPlotOfTooFewSamples(t *testing.T) {
	r := NewRecorder(rss, goroutines)
	r.Add(0, map[string]float64{"rss_mb": 300})
	var b bytes.Buffer
	if err := r.EncodePlot(&b, 0); err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if c := colours(img, image.Rect(0, 0, PlotWidth, PlotPanelHeight)); c[seriesInk] == 0 || c[trendInk] != 0 {
		t.Errorf("one sample: %d series and %d trend pixels; want its dot and no trend", c[seriesInk], c[trendInk])
	}
	if c := colours(img, image.Rect(0, PlotPanelHeight, PlotWidth, 2*PlotPanelHeight)); c[failInk] == 0 || c[seriesInk] != 0 {
		t.Errorf("no samples: %d failure and %d series pixels; want it said and no line", c[failInk], c[seriesInk])
	}
	if err := NewRecorder().EncodePlot(&b, 0); err == nil {
		t.Error("a recorder of no metrics was plotted")
	}
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, format, err := image.Decode(f)
	if err != nil || format != "png" {
		t.Fatalf("decoding the plot: %v (format %q)", err, format)
	}
	return img
}

// colours counts the pixels of each colour within r.
func colours(img image.Image, r image.Rectangle) map[color.RGBA]int {
	out := map[color.RGBA]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			out[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	return out
}
