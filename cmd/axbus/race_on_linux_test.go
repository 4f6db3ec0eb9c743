//go:build race

package main

// raceDetector says the tests run under the race detector, which makes timings meaningless
// (the timed end-to-end tests are Linux ones).
const raceDetector = true
