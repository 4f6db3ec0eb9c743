//go:build race

package testkit

// RaceDetector says the tests run under the race detector, which makes timings meaningless
// (make test runs the timed ones again without it).
const RaceDetector = true
