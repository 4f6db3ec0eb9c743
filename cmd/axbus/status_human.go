package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/axbus/axbus/api"
)

// statusForm is status for a person: the reply as indented JSON but for the process and the
// backend's resources, which end it with one line each.
func statusForm(w io.Writer, r *api.StatusReply) error {
	rest := *r
	rest.Process, rest.Resources = nil, nil
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rest); err != nil {
		return err
	}
	if p := r.Process; p != nil {
		if _, err := fmt.Fprintln(w, processLine(p)); err != nil {
			return err
		}
	}
	if len(r.Resources) > 0 {
		_, err := fmt.Fprintln(w, resourcesLine(r.Resources))
		return err
	}
	return nil
}

// processLine is "process    pid 1234, 85 goroutines, heap 12.3 MiB, rss 45.6 MiB, 31 fds, up 1h2m0s";
// what the platform does not count is left out.
func processLine(p *api.ProcessStatus) string {
	parts := []string{fmt.Sprintf("pid %d", p.PID), fmt.Sprintf("%d goroutines", p.Goroutines), "heap " + mebibytes(p.HeapBytes)}
	if p.RSSBytes > 0 {
		parts = append(parts, "rss "+mebibytes(p.RSSBytes))
	}
	if p.FDs >= 0 {
		parts = append(parts, fmt.Sprintf("%d fds", p.FDs))
	}
	parts = append(parts, "up "+(time.Duration(p.UptimeSec)*time.Second).String())
	return "process    " + strings.Join(parts, ", ")
}

// resourcesLine is "resources  apps 3, cached_elements 1200, ...", by name.
func resourcesLine(res map[string]int) string {
	parts := make([]string, 0, len(res))
	for _, k := range slices.Sorted(maps.Keys(res)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, res[k]))
	}
	return "resources  " + strings.Join(parts, ", ")
}

// mebibytes is n bytes in MiB, one decimal.
func mebibytes(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
