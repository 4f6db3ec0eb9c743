//go:build !race

package waiters

// raceScale stretches the timed tests' bounds under the race detector, which slows matching ~10x.
const raceScale = 1
