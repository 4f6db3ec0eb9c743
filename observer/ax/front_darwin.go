package ax

import "time"

// The platform's side of bringing an app to the front (front.go decides when to call what).

const (
	// activateWait bounds the wait for an activation to bring its app to the front.
	activateWait = 500 * time.Millisecond
	// frontmostWait bounds the wait for AXFrontmost to do it.
	frontmostWait = time.Second
	// frontPoll is how often the frontmost app is looked at while waiting.
	frontPoll = 20 * time.Millisecond
)

// raiser brings apps to the front for this backend's input.
func (b *Backend) raiser() frontRaiser {
	return frontRaiser{frontPID: b.frontPID, activate: activate, setFrontmost: b.setFrontmost,
		activateWait: activateWait, frontWait: frontmostWait, poll: frontPoll}
}

// setFrontmost sets AXFrontmost (kCFBooleanTrue) on app pid's application element.
func (b *Backend) setFrontmost(pid int) error {
	app, err := b.appRef(pid)
	if err != nil {
		return err
	}
	ax, _, err := b.refs.acquire(app)
	if err != nil {
		return err
	}
	defer release(ax)
	return b.callErr(setBool(ax, "AXFrontmost", true), pid, app, "setting AXFrontmost of pid %d", pid)
}
