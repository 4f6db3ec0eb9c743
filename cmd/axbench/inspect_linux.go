package main

import (
	"context"
	"fmt"
	"time"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
)

func init() {
	platformSuites = append(platformSuites, suite{"atspi-inspect", benchATSPIInspect})
}

// benchATSPIInspect: unscoped inspections of the GTK3 fixture window through the daemon, as an
// agent makes them (request over TCP, reply with the listing), after a first warm-up.
func benchATSPIInspect() ([]row, error) {
	s, app, stop, err := desktop(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	_, dir, closeDaemon, err := startDaemonWith(daemon.Config{Backend: "atspi", SessionBus: s.SessionBus, A11yBus: s.A11yBus, Display: s.Display})
	if err != nil {
		return nil, err
	}
	defer closeDaemon()
	nc, _, err := embedded.Connect(dir)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	client, err := bus.NewClient(context.Background(), nc)
	if err != nil {
		return nil, err
	}
	req := bus.InspectRequest{AppTarget: bus.AppTarget{PID: app.PID}}
	var ds []time.Duration
	var listed, walked, omitted int
	for i := range 31 {
		t0 := time.Now()
		insp, err := client.Inspect(context.Background(), req)
		if err != nil {
			return nil, err
		}
		if i > 0 { // the first one warms the backend's caches
			ds = append(ds, time.Since(t0))
		}
		listed, walked, omitted = len(insp.Elements), insp.Walked, insp.OffscreenOmitted
	}
	return []row{{"inspect", "GTK3 fixture window, warm unscoped inspect p50 / p99 (target p50 < 50 ms)", p50p99(ds),
		fmt.Sprintf("30 requests over TCP; %d listed, %d walked, %d off-screen omitted", listed, walked, omitted)}}, nil
}
