package sim

import "slices"

// start launches an instance of spec, replacing an exited app at its pid, starts its looping
// scripts and arms its faults; callers hold d.mu.
func (d *Desktop) start(spec AppSpec) *app {
	d.launches++
	a := newApp(spec, d.launches)
	if i := slices.IndexFunc(d.apps, func(o *app) bool { return o.pid == spec.PID }); i >= 0 {
		d.apps[i] = a
	} else {
		d.apps = append(d.apps, a)
	}
	d.emit(a, "NSWorkspaceDidLaunchApplicationNotification", nil, nil)
	for _, s := range spec.Scripts {
		if s.LoopMS > 0 {
			d.loop(a, s)
		}
	}
	for _, f := range spec.Faults {
		d.inject(a, f)
	}
	return a
}

// maxExitedApps bounds the exited apps kept for a relaunch at their pid: a desktop whose apps come
// and go for days keeps the newest, not all.
const maxExitedApps = 64

// forgetExited drops the oldest exited apps past maxExitedApps; callers hold d.mu.
func (d *Desktop) forgetExited() {
	exited := 0
	for _, a := range d.apps {
		if a.dead {
			exited++
		}
	}
	d.apps = slices.DeleteFunc(d.apps, func(a *app) bool {
		if a.dead && exited > maxExitedApps {
			exited--
			return true
		}
		return false
	})
}

// kill ends a: its windows vanish, calls on it get APP_GONE, and blocked calls return.
func (d *Desktop) kill(a *app) {
	a.dead = true
	a.windows, a.byID, a.focus, a.focusedWindow = nil, map[string]*node{}, nil, nil
	a.clearFaults()
	d.emit(a, "NSWorkspaceDidTerminateApplicationNotification", nil, nil)
	d.forgetExited()
}

// play runs one pass of a script.
func (d *Desktop) play(a *app, s Script) {
	for _, st := range s.Steps {
		d.schedule(a, ms(st.AtMS), st.Do)
	}
}

// loop plays s now and again every LoopMS while a runs.
func (d *Desktop) loop(a *app, s Script) {
	d.play(a, s)
	d.after(ms(s.LoopMS), func() {
		if !a.dead {
			d.loop(a, s)
		}
	})
}
