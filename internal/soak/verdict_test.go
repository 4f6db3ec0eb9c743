package soak

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

var (
	rss        = Metric{Name: "rss_mb", Unit: "MB", Floor: 4, Rel: 0.05}
	goroutines = Metric{Name: "goroutines", Floor: 10, Rel: 0.05}
	strictRSS  = Metric{Name: "rss_mb", Unit: "MB", Floor: 4, Rel: 0.01} // 7 MB on 300: a 10 MB leak fails it
)

// every10s records f's values at 0, 10 s, ... up to and including length.
func every10s(length time.Duration, f func(at time.Duration) map[string]float64, metrics ...Metric) *Recorder {
	r := NewRecorder(metrics...)
	for at := time.Duration(0); at <= length; at += 10 * time.Second {
		r.Add(at, f(at))
	}
	return r
}

// noise is a deterministic uniform noise in [-amp, amp].
func noise(seed uint64) func(amp float64) float64 {
	rng := rand.New(rand.NewPCG(seed, seed))
	return func(amp float64) float64 { return (2*rng.Float64() - 1) * amp }
}

func TestFlatNoisySeriesIsFlat(t *testing.T) {
	n := noise(1)
	r := every10s(10*time.Minute, func(time.Duration) map[string]float64 {
		return map[string]float64{"rss_mb": 300 + n(5), "goroutines": math.Round(120 + n(3))}
	}, rss, goroutines)
	for _, v := range r.Verdicts(0) {
		if !v.Flat || !v.Judged || v.Why != "" {
			t.Errorf("%s: flat %v judged %v why %q, growth %.2f tolerated %.2f; want flat", v.Metric.Name, v.Flat, v.Judged, v.Why, v.Growth, v.Tolerated)
		}
		if v.Samples != 61 || v.Window != 10*time.Minute {
			t.Errorf("%s: %d samples over %s, want 61 over 10m", v.Metric.Name, v.Samples, v.Window)
		}
		if v.Min > v.Mean || v.Mean > v.Max || v.First < v.Min || v.Last > v.Max {
			t.Errorf("%s: min %v mean %v max %v first %v last %v out of order", v.Metric.Name, v.Min, v.Mean, v.Max, v.First, v.Last)
		}
	}
}

// A leak of 1 MB a minute: over 10 minutes its trend adds 10 MB, over 30 minutes 30 MB. The
// tolerance decides which of them passes: 4 MB + 5% of 300 MB (19 MB) lets 10 MB through, and
// catches the leak over the default 30-minute soak.
func TestLeakIsNotFlat(t *testing.T) {
	for _, c := range []struct {
		name   string
		length time.Duration
		metric Metric
		growth float64
	}{
		{"10 min, 4 MB + 1%", 10 * time.Minute, strictRSS, 10},
		{"30 min, 4 MB + 5%", 30 * time.Minute, rss, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := noise(2)
			r := every10s(c.length, func(at time.Duration) map[string]float64 {
				return map[string]float64{"rss_mb": 300 + at.Minutes() + n(2)}
			}, c.metric)
			v := r.Verdicts(0)[0]
			if v.Flat || !v.Judged {
				t.Fatalf("flat %v judged %v: growth %.2f tolerated %.2f; want a judged leak", v.Flat, v.Judged, v.Growth, v.Tolerated)
			}
			if math.Abs(v.Growth-c.growth) > 1 || math.Abs(v.SlopePerHour-60) > 6 { // the noise's share
				t.Errorf("growth %.2f MB at %.2f MB/h, want %v MB at 60 MB/h", v.Growth, v.SlopePerHour, c.growth)
			}
			if want := c.metric.Floor + c.metric.Rel*v.Mean; v.Tolerated != want || v.Growth <= v.Tolerated {
				t.Errorf("tolerated %.2f, want %.2f below the growth %.2f", v.Tolerated, want, v.Growth)
			}
			if !strings.Contains(v.Why, "rss_mb grew") || !strings.Contains(v.Why, "tolerated") {
				t.Errorf("why %q does not say what grew against what was tolerated", v.Why)
			}
			if err := Failed(r.Verdicts(0)); err == nil || !strings.Contains(err.Error(), "rss_mb") {
				t.Errorf("Failed = %v, want an error naming rss_mb", err)
			}
		})
	}
}

func TestWarmupIsNotJudged(t *testing.T) {
	n := noise(3)
	r := every10s(12*time.Minute, func(at time.Duration) map[string]float64 {
		v := 300.0
		if at < 2*time.Minute {
			v = 100 + 100*at.Minutes() // the ramp of a daemon starting: 100 to 300 MB
		}
		return map[string]float64{"rss_mb": v + n(3)}
	}, rss)
	if v := r.Verdicts(2 * time.Minute)[0]; !v.Flat || v.Samples != 61 || v.First < 290 {
		t.Errorf("after a 2 min warm-up: flat %v, %d samples from %.1f, growth %.2f; want flat, 61 samples from ~300", v.Flat, v.Samples, v.First, v.Growth)
	}
	if v := r.Verdicts(0)[0]; v.Flat {
		t.Errorf("the ramp judged too: flat, growth %.2f; want not flat (the warm-up is what makes it flat)", v.Growth)
	}
}

func TestFewerThanThreeSamplesAreNotJudged(t *testing.T) {
	r := NewRecorder(rss)
	r.Add(0, map[string]float64{"rss_mb": 300})
	r.Add(time.Minute, map[string]float64{"rss_mb": 300})
	r.Add(2*time.Minute, map[string]float64{"rss_mb": 300})
	for _, c := range []struct {
		warmup time.Duration
		why    string
	}{
		{time.Minute, "2 samples"},
		{3 * time.Minute, "no samples"},
	} {
		v := r.Verdicts(c.warmup)[0]
		if v.Flat || v.Judged || !strings.Contains(v.Why, "not judged") || !strings.Contains(v.Why, c.why) {
			t.Errorf("warm-up %s: flat %v judged %v why %q; want not judged, saying %q", c.warmup, v.Flat, v.Judged, v.Why, c.why)
		}
	}

	same := NewRecorder(rss)
	for range 3 {
		same.Add(time.Minute, map[string]float64{"rss_mb": 300})
	}
	if v := same.Verdicts(0)[0]; v.Flat || v.Judged || !strings.Contains(v.Why, "not judged") {
		t.Errorf("3 samples at one time: flat %v judged %v why %q; want not judged", v.Flat, v.Judged, v.Why)
	}
	if err := Failed(same.Verdicts(0)); err == nil {
		t.Error("Failed passed a metric that was not judged")
	}
}

func TestGapsAreTolerated(t *testing.T) {
	i := 0
	r := every10s(10*time.Minute, func(at time.Duration) map[string]float64 {
		i++
		values := map[string]float64{"goroutines": 120}
		switch i % 4 {
		case 0: // not measured
		case 1:
			values["rss_mb"] = math.NaN() // a failed read
		default:
			values["rss_mb"] = 300 + at.Minutes()
		}
		return values
	}, strictRSS, goroutines)
	leak, flat := r.Verdicts(0)[0], r.Verdicts(0)[1]
	if leak.Samples != 30 || leak.Flat || math.Abs(leak.Growth-leak.Window.Minutes()) > 1e-9 {
		t.Errorf("rss with gaps: %d samples, flat %v, growth %.2f over %s; want 30, a leak of 1 MB/min", leak.Samples, leak.Flat, leak.Growth, leak.Window)
	}
	// The first sample is a NaN, the last missing: the judged window runs from 10 s to 9 min 40 s.
	if leak.First != 300+(10*time.Second).Minutes() || leak.Window != 9*time.Minute+30*time.Second || math.Abs(leak.Last-leak.First-leak.Window.Minutes()) > 1e-9 {
		t.Errorf("first %v last %v over %s: want the first and last present values", leak.First, leak.Last, leak.Window)
	}
	if flat.Samples != 61 || !flat.Flat {
		t.Errorf("goroutines beside rss's gaps: %d samples, flat %v; want 61, flat", flat.Samples, flat.Flat)
	}
}

func TestSamplesAreKeptInTimeOrder(t *testing.T) {
	r := NewRecorder(rss)
	for _, m := range []int{3, 0, 2, 1} {
		r.Add(time.Duration(m)*time.Minute, map[string]float64{"rss_mb": 300 + float64(m), "unknown": 1})
	}
	v := r.Verdicts(0)[0]
	if v.First != 300 || v.Last != 303 || math.Abs(v.SlopePerHour-60) > 1e-9 {
		t.Errorf("first %v last %v slope %v, want 300, 303, 60/h", v.First, v.Last, v.SlopePerHour)
	}
}

func TestNewRecorderRefusesDuplicateNames(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewRecorder took rss_mb twice")
		}
	}()
	NewRecorder(rss, rss)
}
