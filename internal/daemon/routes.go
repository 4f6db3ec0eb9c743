package daemon

import (
	"context"
	"encoding/json"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/flows"
	"github.com/axbus/axbus/internal/handlers"
	"github.com/axbus/axbus/observer/ocr"
)

// routes ties every endpoint of api.Endpoints to the operation that answers it: this one screen
// is the map from the service's subjects to the packages that do the work.
func (d *Daemon) routes() []bus.Route {
	see := handlers.NewObserving(d.Observer, ocr.Default())
	listen := listenStatus(d.Server.Info())
	status := &handlers.Status{Host: d.Subjects.Host, Backend: d.Backend.Platform(), Started: time.Now(),
		Listen: &listen, Subjects: d.Subjects, Stream: d.Subjects.StreamName(),
		Conn: d.Server.Conn(), Events: d.Pub, Snaps: d.Snap, Poller: d.Poller, Store: d.Observer.Store(),
		Observing: see, Admission: func() *api.AdmissionStatus { return d.Service.Admission() }, Resources: handlers.ResourcesOf(d.Backend)}
	presence := &handlers.Presence{Connected: presence(d.Server), Audit: d.Audit, LeasesOf: d.Leases.HeldBy, WaitingOf: d.Leases.WaitingFor}
	routes := []bus.Route{
		// observe: the desktop read (package observer, through handlers), waits (waiters),
		// presence (the server's connections and the audit trail)
		bus.Handle("apps", see.Apps),
		bus.Handle("windows", see.Windows),
		bus.Handle("inspect", see.Inspect),
		bus.Handle("read", see.Read),
		bus.Handle("snapshot", see.Snapshot),
		bus.Handle("status", status.Serve),
		bus.Handle("wait", see.Waiting(d.Waits.Serve)),
		bus.Handle("agents", presence.Serve),
		// pixels
		bus.Handle("screenshot", see.Screenshot),
		bus.Handle("screenshot_part", see.ScreenshotPart),
		// manage: the server's accounts, the console's URLs
		bus.Handle("creds", bus.Replying(creds(d.Server))),
		bus.Handle("console", bus.Replying(d.consoleURL)),
		// act: package commands; the audit trail records each call
		bus.Handle("lease", bus.Replying(d.Leases.Serve)),
		bus.Handle("window", bus.Replying(d.Commands.Window)),
		bus.Handle("launch", bus.Replying(d.Commands.Launch)),
		bus.Handle("quit", bus.Replying(d.Commands.Quit)),
		bus.Handle("clipboard", bus.Replying(d.Commands.Clipboard)),
		bus.Handle("web_accessibility", bus.Replying(d.Commands.WebAccessibility)),
		// flows: recorded from the actions done, replayed through the endpoints' own handlers
		bus.Handle("record", bus.Replying(d.Recorder.Serve)),
		bus.Handle("replay", bus.Replying(flows.NewRunner(d.callInProcess, d.publishJSON, d.Subjects).Replay)),
	}
	for _, action := range api.Actions { // click, type, set_value, ...: one operation, commands.Engine.Do
		routes = append(routes, bus.Handle(action, see.Acting(action, d.Commands.Do)))
	}
	return routes
}

// callInProcess runs an endpoint for a replay's step: the service is made after the routes.
func (d *Daemon) callInProcess(ctx context.Context, endpoint string, req, reply any) error {
	return d.Service.Call(ctx, endpoint, req, reply)
}

// publishJSON publishes v on subject from the daemon's own connection; a replay's progress is
// told, not waited for.
func (d *Daemon) publishJSON(subject string, v any) {
	if data, err := json.Marshal(v); err == nil {
		_ = d.Server.Conn().Publish(subject, data)
	}
}
