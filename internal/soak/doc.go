// Package soak records what a long run of the daemon measured and judges it: the platform-free
// half of `make soak`.
//
// A soak samples each resource (RSS, goroutines, open file descriptors, peer connections, ...)
// every few seconds into a Recorder. After a warm-up, a resource that neither leaks nor piles up
// is flat: the least-squares line through its samples adds no more over the judged window than
// its Metric tolerates (an absolute floor plus a fraction of its mean). A slope, not a comparison
// of two snapshots, so that one noisy sample neither hides a leak nor invents one. Fewer than
// three samples are not judged, and say so.
//
// The Recorder writes what it judged as a markdown table and as a PNG (one panel per resource,
// the warm-up shaded, the trend drawn over the judged window), both drawn with the standard
// library alone. The Watchdog tells which of the soak's own loops stopped saying they are alive.
package soak
