package soak

import (
	"bufio"
	"io"
	"slices"
	"strings"
	"time"
)

// WriteTable writes the verdicts and the samples as markdown: a row per metric (metric, first,
// last, min, max, slope/h, growth, tolerated, flat, samples, why), then a row per sample (its
// time, one column per metric; a gap is "-", a sample of the warm-up is marked so).
func (r *Recorder) WriteTable(w io.Writer, warmup time.Duration) error {
	samples := r.snapshot()
	verdicts := r.verdicts(samples, warmup)
	b := bufio.NewWriter(w)
	row := func(cells ...string) {
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	rule := func(n int) { row(slices.Repeat([]string{"---"}, n)...) }

	row("metric", "first", "last", "min", "max", "slope/h", "growth", "tolerated", "flat", "samples", "why")
	rule(11)
	for _, v := range verdicts {
		flat := "no"
		switch {
		case v.Flat:
			flat = "yes"
		case !v.Judged:
			flat = "not judged"
		}
		// What was not measured or not fitted shows as "-", not as a 0 one would read as flat.
		measured, fitted := dashes(v.Samples > 0), dashes(v.Judged)
		row(v.Metric.label(), measured(v.First), measured(v.Last), measured(v.Min), measured(v.Max),
			fitted(v.SlopePerHour), fitted(v.Growth), measured(v.Tolerated), flat, num(float64(v.Samples)), cell(v.Why))
	}

	b.WriteString("\n")
	head := []string{"time"}
	for _, m := range r.metrics {
		head = append(head, m.label())
	}
	row(head...)
	rule(len(head))
	for _, s := range samples {
		at := s.at.String()
		if s.at < warmup {
			at += " (warm-up)"
		}
		cells := []string{at}
		for _, v := range s.values {
			cells = append(cells, num(v)) // a gap, NaN, is "-"
		}
		row(cells...)
	}
	return b.Flush()
}

// cell keeps a text within its markdown cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// dashes writes numbers that exist, and "-" for every one when they do not.
func dashes(exist bool) func(float64) string {
	if exist {
		return num
	}
	return func(float64) string { return "-" }
}
