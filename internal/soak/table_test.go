package soak

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTableHasARowPerMetricAndPerSample(t *testing.T) {
	fds := Metric{Name: "fds", Floor: 5}
	r := every10s(3*time.Minute, func(at time.Duration) map[string]float64 {
		values := map[string]float64{"rss_mb": 300.25, "goroutines": 120}
		if at != time.Minute {
			values["fds"] = 40
		}
		return values
	}, rss, goroutines, fds)
	var b strings.Builder
	if err := r.WriteTable(&b, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	tables := strings.Split(strings.TrimSpace(b.String()), "\n\n")
	if len(tables) != 2 {
		t.Fatalf("%d tables, want the verdicts and the samples:\n%s", len(tables), b.String())
	}
	verdicts, samples := strings.Split(tables[0], "\n"), strings.Split(tables[1], "\n")
	if len(verdicts) != 2+3 || len(samples) != 2+19 {
		t.Fatalf("%d verdict lines and %d sample lines, want 2+3 and 2+19:\n%s", len(verdicts), len(samples), b.String())
	}
	for _, want := range []string{"| metric | first | last | min | max | slope/h | growth | tolerated | flat |", "| time | rss_mb (MB) | goroutines | fds |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no header %q in:\n%s", want, b.String())
		}
	}
	for i, name := range []string{"rss_mb (MB)", "goroutines", "fds"} {
		if !strings.HasPrefix(verdicts[2+i], "| "+name+" | ") || !strings.Contains(verdicts[2+i], "| yes |") {
			t.Errorf("verdict row %d = %q, want %s, flat", i, verdicts[2+i], name)
		}
	}
	if !strings.Contains(verdicts[2], "| 300.2 |") {
		t.Errorf("rss row %q does not show 300.25 as 300.2", verdicts[2])
	}
	for _, want := range []string{"| 0s (warm-up) | 300.2 | 120 | 40 |", "| 30s | 300.2 | 120 | 40 |", "| 1m0s | 300.2 | 120 | - |", "| 3m0s |"} {
		if !strings.Contains(tables[1], want) {
			t.Errorf("no sample row %q in:\n%s", want, tables[1])
		}
	}
}

func TestRecorderIsSafeForConcurrentUse(t *testing.T) {
	r := NewRecorder(rss, goroutines)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				r.Add(time.Duration(w*50+i)*time.Second, map[string]float64{"rss_mb": 300, "goroutines": 100})
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			r.Verdicts(0)
			if err := r.WriteTable(&strings.Builder{}, 0); err != nil {
				t.Error(err)
			}
		}
	})
	wg.Wait()
	if v := r.Verdicts(0)[0]; r.Len() != 200 || v.Samples != 200 || !v.Flat {
		t.Errorf("%d samples recorded, %d judged, flat %v; want 200, 200, flat", r.Len(), v.Samples, v.Flat)
	}
}
