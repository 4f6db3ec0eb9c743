package main

import (
	"fmt"
	"slices"
	"time"
)

// percentile returns the p-th percentile (0..100) of ds, which it sorts.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(float64(len(ds)-1) * p / 100)
	return ds[i]
}

// us formats a duration in microseconds, or milliseconds when large.
func us(d time.Duration) string {
	if d >= 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
}

// p50p99 formats the median and the 99th percentile.
func p50p99(ds []time.Duration) string {
	return us(percentile(ds, 50)) + " / " + us(percentile(ds, 99))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func ratio(slow, fast time.Duration) string { return fmt.Sprintf("%.1fx", float64(slow)/float64(fast)) }
