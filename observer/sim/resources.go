package sim

// Resources is what the simulated desktop holds now, per kind (observer.ResourceReporter): the
// apps running and the exited ones kept for a relaunch at their pid, the elements of the running
// apps, the timers armed (scripts, reactions, timed faults), the watchers and the events queued
// for them, the calls blocked by a hung app.
func (d *Desktop) Resources() map[string]int {
	d.mu.Lock()
	r := map[string]int{"apps": 0, "apps_exited": 0, "elements": 0, "timers": len(d.timers), "hung_calls": d.hung}
	for _, a := range d.apps {
		if a.dead {
			r["apps_exited"]++
			continue
		}
		r["apps"]++
		r["elements"] += len(a.byID)
	}
	f := d.feed
	d.mu.Unlock()
	r["watchers"] = d.sinks.Count()
	r["queued_events"] = 0
	if f != nil {
		f.mu.Lock()
		r["queued_events"] = len(f.queue)
		f.mu.Unlock()
	}
	return r
}
