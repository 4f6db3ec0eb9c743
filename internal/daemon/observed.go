package daemon

import (
	"context"
	"time"

	"github.com/axbus/axbus/observer"
)

// gateRechecks holds the backend's own re-reads of apps whose toolkit misses events (GTK4, every
// 500 ms) to interest: an app is re-read only while someone observes it: a wait on it (or one
// that ended within the linger), its polled diffs, a client subscribed to its events, or a
// consumer of the event stream (a tail). Nobody observing, its unannounced changes are not
// looked for, and the stream's history holds what the toolkit itself announced.
func (d *Daemon) gateRechecks() {
	gate, ok := d.Backend.(observer.RecheckGate)
	if !ok {
		return
	}
	// The stream's own subscription covers every event subject: a client is interest past it.
	const probeType = string(observer.EventValueChanged)
	own := d.Server.Interest(d.Subjects.Event("-", probeType))
	stream := d.Subjects.StreamName()
	gate.RecheckWhen(func(app observer.App) bool {
		if d.Waits.Watching(app.PID) || (d.Poller != nil && d.Poller.Polling(app.PID)) {
			return true
		}
		if d.Server.Interest(d.Subjects.Event(app.Name, probeType)) > own {
			return true
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		n, err := d.Server.StreamConsumers(ctx, stream)
		return err != nil || n > 0 // in doubt, re-read
	})
}
