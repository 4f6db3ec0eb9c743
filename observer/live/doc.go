// Package live keeps copies of windows up to date by notifications: the tracking engine over an
// observer.Observer. A Window is one window's tree, read whole once and then only where events
// name a change (waits evaluate their conditions on it and build their replies' snapshots from
// it); a Poller keeps the focused window of each app someone listens to and publishes what
// changed as model.Diff values (reset, events, resync, gone).
//
//	p := live.NewPoller(obs, publish, live.PollWhen(listeners))
//	if err := p.Start(); err != nil { ... }
//	defer p.Stop()
//
// It imports observer and the standard library only.
package live
