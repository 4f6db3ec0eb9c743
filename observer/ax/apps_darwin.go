package ax

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/axbus/axbus/model"
)

// A process that is not an app when first seen is asked again as it ages, each time at twice
// the age (and a second later at least) until it is 30 seconds old: an app registers with
// LaunchServices a little after its process starts.
const (
	firstRecheck = time.Second
	youngProcess = 30 * time.Second
)

// appCache remembers, per process, whether it is an app and which, so that a scan asks AppKit
// only about processes it has not seen.
type appCache struct {
	mu     sync.Mutex
	seeded bool
	byPID  map[int]*appEntry
}

type appEntry struct {
	start   time.Time
	app     *model.App    // nil: not an app with UI
	recheck time.Duration // the age at which a young non-app is asked again
}

func newAppCache() appCache { return appCache{byPID: map[int]*appEntry{}} }

// drop forgets process pid.
func (c *appCache) drop(pid int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.byPID, pid)
}

// Apps lists the running apps with UI (activation policy regular or accessory), by pid, the
// frontmost one marked Active. Instance is the process's start time. The elements of apps that
// exited since the last call are forgotten.
func (b *Backend) Apps(ctx context.Context) ([]model.App, error) {
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, errEnded(ctx, "listing the apps")
	}
	apps, gone, err := b.scanApps()
	if err != nil {
		return nil, err
	}
	for _, pid := range gone {
		b.refs.forgetApp(pid)
	}
	front := b.frontPID()
	for i := range apps {
		apps[i].Active = apps[i].PID == front
	}
	return apps, nil
}

// scanApps brings the cache up to date with the process table. It returns the apps and the
// pids whose process ended or was replaced.
func (b *Backend) scanApps() (apps []model.App, gone []int, err error) {
	procs, err := processes()
	if err != nil {
		return nil, nil, err
	}
	c := &b.apps
	c.mu.Lock()
	defer c.mu.Unlock()
	var seed map[int]model.App
	if !c.seeded {
		seed, c.seeded = workspaceApps(), true
	}
	now := time.Now()
	alive := make(map[int]bool, len(procs))
	for _, p := range procs {
		if p.pid <= 0 || p.pid == b.self || !p.mine {
			continue
		}
		alive[p.pid] = true
		e := c.byPID[p.pid]
		if e != nil && !e.start.Equal(p.start) {
			gone = append(gone, p.pid) // a reused pid: the old process's elements are dead
			e = nil
		}
		age := now.Sub(p.start)
		ask := false
		if e == nil {
			e = &appEntry{start: p.start}
			c.byPID[p.pid] = e
			a, ok := seed[p.pid]
			if ok {
				e.app = &a
			}
			ask = !ok && (seed == nil || age < youngProcess)
		} else {
			ask = e.app == nil && age >= e.recheck && age < youngProcess
		}
		if ask {
			e.app = askApp(p.pid)
			e.recheck = max(2*age, age+firstRecheck)
		}
		if e.app != nil {
			a := *e.app
			a.Instance = p.instance()
			apps = append(apps, a)
		}
	}
	for pid := range c.byPID {
		if !alive[pid] {
			delete(c.byPID, pid)
			gone = append(gone, pid)
		}
	}
	slices.SortFunc(apps, func(x, y model.App) int { return x.PID - y.PID })
	return apps, gone, nil
}

// askApp asks AppKit whether process pid is an app with UI; nil when it is not.
func askApp(pid int) *model.App {
	if a, ok := runningApp(pid); ok {
		return &a
	}
	return nil
}

// frontPID is the pid of the frontmost app, 0 when none is known.
func (b *Backend) frontPID() int {
	ref, code := b.refs.copyElement(systemWide(), "AXFocusedApplication")
	if code != AXSuccess {
		return 0
	}
	pid, _, _ := parseRef(ref)
	return pid
}

// appRef is the handle of app pid's application element.
func (b *Backend) appRef(pid int) (model.NodeRef, error) {
	if !processAlive(pid) {
		return "", errNoApp(pid)
	}
	ax := axUIElementCreateApplication(int32(pid))
	if ax == 0 {
		return "", errNoApp(pid)
	}
	defer release(ax)
	ref := b.refs.internApp(ax)
	if ref == "" {
		return "", errNoApp(pid)
	}
	return ref, nil
}
