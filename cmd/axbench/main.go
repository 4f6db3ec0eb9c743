// Command axbench measures axbus and prints the benchmark table of `make bench`: medians and
// tails of latencies, throughputs and memory, each comparison measured side by side in one run
// because the machines are noisy.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/axbus/axbus/internal/daemon"
)

// row is one line of the table.
type row struct {
	area, metric, value, note string
	// target is what the row must show ("p50 <= 12 ms"), "" when it has none; verdict is the
	// run's: verdict(ok).
	target, verdict string
}

// suite is one group of measurements.
type suite struct {
	name string
	run  func() ([]row, error)
}

// platformSuites are added by per-OS files: the real desktop backends.
var platformSuites []suite

// axbusBin is the binary the suites that measure a daemon process run: another build can be
// measured beside this one (say, the commit before a change).
var axbusBin = flag.String("axbus", "bin/axbus", "the axbus binary the idle suites run as `axbus serve`")

func main() {
	only := flag.String("only", "", "run only the suite of this name, or else the suites whose name contains this")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	memprofile := flag.String("memprofile", "", "write an allocation profile of the run to this file")
	flag.Parse()
	daemon.SetGCPolicy() // the suites host daemons: this process runs as `axbus serve` does
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "axbench:", err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "axbench:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	suites := []suite{
		{"agents", benchAgents},
		{"api", benchAPI},
		{"events", benchEvents},
		{"fleet", benchFleet},
		{"flows", benchFlows},
		{"hostile", benchHostile},
		{"idle", benchIdleRSS},
		{"mcp", benchMCP},
		{"poll", benchPoll},
		{"wait", benchSimWaits},
	}
	suites = append(suites, platformSuites...)
	fmt.Printf("# axbus benchmarks (%s)\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Println("| area | metric | value | target | met | note |")
	fmt.Println("|---|---|---|---|---|---|")
	failed := false
	for _, s := range suites {
		if *only != "" && s.name != *only && (exact(suites, *only) || !strings.Contains(s.name, *only)) {
			continue
		}
		rows, err := s.run()
		if err != nil {
			fmt.Fprintf(os.Stderr, "axbench %s: %v\n", s.name, err)
			failed = true
		}
		for _, r := range rows {
			target, verdict := cmp.Or(r.target, "-"), cmp.Or(r.verdict, "-")
			fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", r.area, r.metric, r.value, target, verdict, r.note)
		}
	}
	if *memprofile != "" {
		if err := writeAllocs(*memprofile); err != nil {
			fmt.Fprintln(os.Stderr, "axbench:", err)
			failed = true
		}
	}
	if failed {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// writeAllocs writes the profile of every allocation made since the start.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// exact reports whether a suite is named name.
func exact(suites []suite, name string) bool {
	for _, s := range suites {
		if s.name == name {
			return true
		}
	}
	return false
}
