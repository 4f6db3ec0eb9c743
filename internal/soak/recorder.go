package soak

import (
	"fmt"
	"math"
	"sort"
	"sync"
	"time"
)

// Recorder holds the samples of a soak's metrics, in time order. It is safe for concurrent use:
// the driver's sampler adds while its report reads.
type Recorder struct {
	metrics []Metric

	mu      sync.Mutex
	samples []sample
}

// sample is what one look measured: a value per metric, NaN where it was not measured (a gap).
type sample struct {
	at     time.Duration
	values []float64 // by the index of the recorder's metrics
}

// NewRecorder records the metrics given, judged and drawn in that order. Each needs a name of its
// own: a name given twice or empty is a mistake in the driver, and NewRecorder panics on it.
func NewRecorder(metrics ...Metric) *Recorder {
	seen := make(map[string]bool, len(metrics))
	for _, m := range metrics {
		if m.Name == "" || seen[m.Name] {
			panic(fmt.Sprintf("soak: metric name %q empty or given twice: each metric needs a name of its own", m.Name))
		}
		seen[m.Name] = true
	}
	return &Recorder{metrics: append([]Metric(nil), metrics...)}
}

// Metrics returns the recorded metrics, in their order.
func (r *Recorder) Metrics() []Metric { return append([]Metric(nil), r.metrics...) }

// Add records a sample taken at the given time since the soak began. A metric missing from
// values, or whose value is NaN or infinite, is a gap in its series; names of no recorded metric
// are ignored. Samples may come out of order: they are kept in time order.
func (r *Recorder) Add(at time.Duration, values map[string]float64) {
	s := sample{at: at, values: make([]float64, len(r.metrics))}
	for i, m := range r.metrics {
		v, ok := values[m.Name]
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			v = math.NaN()
		}
		s.values[i] = v
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	i := sort.Search(len(r.samples), func(i int) bool { return r.samples[i].at > at })
	r.samples = append(r.samples, sample{})
	copy(r.samples[i+1:], r.samples[i:])
	r.samples[i] = s
}

// Len is the number of samples recorded.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.samples)
}

// snapshot is the samples so far, for a report to read without holding the lock: a sample's
// values are never written after Add.
func (r *Recorder) snapshot() []sample {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sample(nil), r.samples...)
}

// point is one present value of a series.
type point struct {
	at time.Duration
	v  float64
}

// series is metric i's present values at or after from.
func series(samples []sample, i int, from time.Duration) []point {
	var out []point
	for _, s := range samples {
		if s.at >= from && !math.IsNaN(s.values[i]) {
			out = append(out, point{s.at, s.values[i]})
		}
	}
	return out
}
