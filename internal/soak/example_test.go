package soak_test

import (
	"fmt"
	"os"
	"time"

	"github.com/axbus/axbus/internal/soak"
)

// A daemon whose RSS grows 1 MB a minute while its goroutines stay put, sampled every 10 s
// for 30 minutes after a 1-minute warm-up.
func ExampleRecorder() {
	r := soak.NewRecorder(
		soak.Metric{Name: "rss_mb", Unit: "MB", Floor: 4, Rel: 0.05},
		soak.Metric{Name: "goroutines", Floor: 10, Rel: 0.05},
	)
	for at := time.Duration(0); at <= 31*time.Minute; at += 10 * time.Second {
		r.Add(at, map[string]float64{"rss_mb": 300 + at.Minutes(), "goroutines": 120})
	}
	for _, v := range r.Verdicts(time.Minute) {
		if v.Flat {
			fmt.Printf("%s is flat\n", v.Metric.Name)
		} else {
			fmt.Println(v.Why)
		}
	}
	if err := soak.Failed(r.Verdicts(time.Minute)); err != nil {
		fmt.Fprintln(os.Stdout, "soak failed")
	}
	// Output:
	// rss_mb grew 30 MB over 30m0s (60 MB/h), more than the 19.8 MB tolerated (4 MB + 5% of the mean 316 MB)
	// goroutines is flat
	// soak failed
}
