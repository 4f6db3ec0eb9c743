package soak

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// minSamples is the fewest samples a slope is judged on: two always fit a line exactly.
const minSamples = 3

// Verdict is what a metric's samples after the warm-up show: their range, their trend and
// whether that trend stayed within what the metric tolerates.
type Verdict struct {
	Metric                      Metric
	Samples                     int
	First, Last, Min, Max, Mean float64       // over the judged window (after warm-up)
	SlopePerHour                float64       // least-squares slope, Unit per hour
	Growth                      float64       // SlopePerHour × the judged window's length: what the trend added over it
	Tolerated                   float64       // Floor + Rel × Mean
	Flat                        bool          // Growth <= Tolerated (and there were at least 3 samples)
	Why                         string        // when not flat (or not judged): one line a person reads
	Window                      time.Duration // the judged window's length: its first sample to its last
	Judged                      bool          // at least 3 samples at 2 times or more: a slope was fitted
}

// Verdicts judges every metric on its samples taken at or after warmup, one verdict per metric in
// the metrics' order.
func (r *Recorder) Verdicts(warmup time.Duration) []Verdict {
	return r.verdicts(r.snapshot(), warmup)
}

// verdicts judges the samples given: a report's verdicts of the very samples it shows.
func (r *Recorder) verdicts(samples []sample, warmup time.Duration) []Verdict {
	out := make([]Verdict, len(r.metrics))
	for i, m := range r.metrics {
		out[i] = judge(m, series(samples, i, warmup), warmup)
	}
	return out
}

// judge fits a least-squares line through ps (time in hours) and compares what it adds over
// the window with what m tolerates.
func judge(m Metric, ps []point, warmup time.Duration) Verdict {
	v := Verdict{Metric: m, Samples: len(ps)}
	if len(ps) == 0 {
		v.Why = fmt.Sprintf("%s not judged: no samples after the %s warm-up", m.Name, warmup)
		return v
	}
	v.First, v.Last = ps[0].v, ps[len(ps)-1].v
	v.Min, v.Max = ps[0].v, ps[0].v
	var sumT, sumV float64
	for _, p := range ps {
		v.Min, v.Max = math.Min(v.Min, p.v), math.Max(v.Max, p.v)
		sumT += (p.at - ps[0].at).Hours()
		sumV += p.v
	}
	n := float64(len(ps))
	meanT := sumT / n
	v.Mean = sumV / n
	v.Window = ps[len(ps)-1].at - ps[0].at
	v.Tolerated = m.Floor + m.Rel*math.Abs(v.Mean)
	if len(ps) < minSamples {
		v.Why = fmt.Sprintf("%s not judged: %d samples after the %s warm-up, a slope needs %d", m.Name, len(ps), warmup, minSamples)
		return v
	}
	var stt, stv float64
	for _, p := range ps {
		dt := (p.at - ps[0].at).Hours() - meanT
		stt += dt * dt
		stv += dt * (p.v - v.Mean)
	}
	if stt == 0 {
		v.Why = fmt.Sprintf("%s not judged: its %d samples were all taken at %s", m.Name, len(ps), ps[0].at)
		return v
	}
	v.Judged = true
	v.SlopePerHour = stv / stt
	v.Growth = v.SlopePerHour * v.Window.Hours()
	v.Flat = v.Growth <= v.Tolerated
	if !v.Flat {
		u := unit(m)
		v.Why = fmt.Sprintf("%s grew %s over %s (%s/h), more than the %s tolerated (%s + %s%% of the mean %s)",
			m.Name, num(v.Growth)+u, v.Window, num(v.SlopePerHour)+u, num(v.Tolerated)+u,
			num(m.Floor)+u, num(100*m.Rel), num(v.Mean)+u)
	}
	return v
}

// Failed is nil when every verdict is flat, else an error naming each one that is not, with why.
func Failed(verdicts []Verdict) error {
	var errs []error
	for _, v := range verdicts {
		if !v.Flat {
			errs = append(errs, errors.New(v.Why))
		}
	}
	return errors.Join(errs...)
}
