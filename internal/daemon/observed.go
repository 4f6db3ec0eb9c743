package daemon

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// gateRechecks holds the backend's own re-reads of apps whose toolkit misses events (GTK4) to
// interest: fast (every 100 ms) while a wait or an expect is pending on the app, or an action
// watches for its effects, whose answer waits on the re-read; slow (every 500 ms) while someone else observes it: a wait that ended
// within the linger, its polled diffs, a client subscribed to its events, or a consumer of the
// event stream (a tail). Nobody observing, its unannounced changes are not looked for, and the
// stream's history holds what the toolkit itself announced.
func (d *Daemon) gateRechecks() {
	gate, ok := d.Backend.(observer.RecheckGate)
	if !ok {
		return
	}
	// The stream's own subscription covers every event subject: a client is interest past it.
	const probeType = string(model.EventValueChanged)
	own := d.Server.Interest(d.Subjects.Event("-", probeType))
	stream := d.Subjects.StreamName()
	gate.RecheckWhen(func(app model.App) observer.Recheck {
		switch {
		case d.Waits.Pending(app.PID) || d.Commands.Settling(app.PID):
			return observer.RecheckFast
		case d.Waits.Watching(app.PID) || (d.Poller != nil && d.Poller.Polling(app.PID)):
			return observer.RecheckSlow
		case d.Server.Interest(d.Subjects.Event(app.Name, probeType)) > own:
			return observer.RecheckSlow
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if n, err := d.Server.StreamConsumers(ctx, stream); err != nil || n > 0 { // in doubt, re-read
			return observer.RecheckSlow
		}
		return observer.RecheckNone
	})
}
