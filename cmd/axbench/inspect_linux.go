package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
)

func init() {
	platformSuites = append(platformSuites, suite{"atspi-inspect", benchATSPIInspect})
}

// benchATSPIInspect: unscoped inspections of the GTK3 fixture window through the daemon, as an
// agent makes them (request over TCP, reply with the listing), after a first warm-up.
func benchATSPIInspect() ([]row, error) {
	dd, stop, err := startDesktopDaemon(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	app, client := dd.app, dd.client
	req := api.InspectRequest{AppTarget: api.AppTarget{PID: app.PID}}
	// How busy the app and we were during the requests: an app on a core the whole time is
	// answering as fast as it can.
	inspCPU, scopedCPU, readCPU := newCPUMeter(app.PID, os.Getpid()), newCPUMeter(app.PID, os.Getpid()), newCPUMeter(app.PID, os.Getpid())
	busy := func(m *cpuMeter) string {
		return fmt.Sprintf("; the app on a core %.0f%% of the time, axbus %.0f%%", m.share(0), m.share(1))
	}
	var ds []time.Duration
	var last *model.Inspection
	for i := range 31 {
		m := inspCPU
		if i == 0 { // the first one warms the backend's caches
			m = newCPUMeter()
		}
		err := m.span(func() error {
			t0 := time.Now()
			insp, err := client.Inspect(context.Background(), req)
			if err != nil {
				return err
			}
			if i > 0 {
				ds = append(ds, time.Since(t0))
			}
			last = insp
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	rows := []row{{"inspect", "GTK3 fixture window, warm unscoped inspect p50 / p99", p50p99(ds),
		fmt.Sprintf("30 requests over TCP; %d listed, %d walked, %d off-screen omitted", len(last.Elements), last.Walked, last.OffscreenOmitted) + busy(inspCPU),
		"p50 <= 12 ms", verdict(percentile(ds, 50) <= 12*time.Millisecond)}}

	var list string
	for _, e := range last.Elements {
		if e.Role == model.RoleList && e.Name == "Rows" {
			list = last.SnapshotID + ":" + e.ID
		}
	}
	if list == "" {
		return rows, fmt.Errorf("the Rows list is not in the unscoped listing")
	}
	var scoped []time.Duration
	var listedScoped, walkedScoped int
	for range 10 {
		err := scopedCPU.span(func() error {
			t0 := time.Now()
			insp, err := client.Inspect(context.Background(), api.InspectRequest{Scope: list})
			if err != nil {
				return err
			}
			scoped = append(scoped, time.Since(t0))
			listedScoped, walkedScoped = len(insp.Elements), insp.Walked
			return nil
		})
		if err != nil {
			return rows, err
		}
	}
	var reads []time.Duration
	var readBytes, readElements int
	for range 10 {
		err := readCPU.span(func() error {
			t0 := time.Now()
			r, err := client.Read(context.Background(), api.ReadRequest{AppTarget: api.AppTarget{PID: app.PID}})
			if err != nil {
				return err
			}
			reads = append(reads, time.Since(t0))
			readBytes, readElements = r.Bytes, r.Elements
			return nil
		})
		if err != nil {
			return rows, err
		}
	}
	rows = append(rows, row{"read", "GTK3 fixture window, read p50 / p99", p50p99(reads),
		fmt.Sprintf("10 requests; %d elements walked, %d bytes of text", readElements, readBytes) + busy(readCPU),
		"p50 <= 80 ms", verdict(percentile(reads, 50) <= 80*time.Millisecond)})
	return append(rows, row{"inspect", "GTK3 400-row list, scoped inspect p50 / p99", p50p99(scoped),
		fmt.Sprintf("10 requests; the window walked again with the wide budget (%d elements) to find the list; %d listed", walkedScoped, listedScoped) + busy(scopedCPU),
		"p50 <= 80 ms", verdict(percentile(scoped, 50) <= 80*time.Millisecond)}), nil
}
