package soak

// Metric is one resource the soak samples and how much it may grow over the judged window and stay "flat".
type Metric struct {
	Name  string  // "rss_mb", "goroutines", "fds", "peers", ...
	Unit  string  // "MB", "", ...
	Floor float64 // growth tolerated whatever the mean (absolute, in Unit)
	Rel   float64 // growth tolerated as a fraction of the mean (0.1 = 10%)
}

// label is the metric's name with its unit, as the table's headers and the plot's panels show it.
func (m Metric) label() string {
	if m.Unit == "" {
		return m.Name
	}
	return m.Name + " (" + m.Unit + ")"
}
