//go:build linux

package atspi

// Resources is what the backend holds now, per kind (observer.ResourceReporter): counts taken
// under each part's own lock, no call to an app or the bus. What an app costs (its entry in the
// apps, its peer connection, its worker, its cached elements, its focus mark) returns to what it
// was once the app is gone; "apps_gone" and "apps_left" keep a bus only until both its worker has
// ended and its connection has left the bus.
func (b *Backend) Resources() map[string]int {
	r := make(map[string]int, 16)
	b.mu.Lock()
	r["apps"] = len(b.apps)
	r["focus_marks"] = len(b.focus)
	r["reannounce"] = len(b.reannounce)
	r["probed_connections"] = len(b.probed)
	r["match_rules"] = int(b.matchRules.Load())
	r["x_connections"] = countNonNil(b.x != nil, b.clipboard != nil)
	w := b.watch
	b.mu.Unlock()
	b.peers.mu.Lock()
	r["peers_tried"] = len(b.peers.conns)
	r["peers_stalled"] = len(b.peers.stalled)
	for _, c := range b.peers.conns {
		if c != nil {
			r["peer_connections"]++
		}
	}
	b.peers.mu.Unlock()
	r["cached_elements"] = b.cache.len()
	b.sigs.mu.Lock()
	r["queued_signals"] = len(b.sigs.items)
	r["text_pending"] = len(b.sigs.textPending)
	b.sigs.mu.Unlock()
	r["watch_sinks"], r["workers"], r["apps_gone"], r["apps_left"], r["queued_jobs"] = 0, 0, 0, 0, 0
	if w != nil {
		r["watch_sinks"] = w.sinks.Count()
		w.mu.Lock()
		r["workers"], r["apps_gone"], r["apps_left"] = len(w.workers), len(w.gone), len(w.left)
		workers := make([]*appWorker, 0, len(w.workers))
		for _, wk := range w.workers {
			workers = append(workers, wk)
		}
		w.mu.Unlock()
		for _, wk := range workers {
			wk.mu.Lock()
			r["queued_jobs"] += len(wk.queue)
			wk.mu.Unlock()
		}
	}
	return r
}

// countNonNil counts the conditions that hold: the connections open.
func countNonNil(open ...bool) int {
	n := 0
	for _, o := range open {
		if o {
			n++
		}
	}
	return n
}
