package bus

import (
	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
)

// SnapListeners is a daemon's live.PollWhen function: how many subscriptions of its NATS
// server receive app's diffs on <prefix>.<host>.snap.<app>, wildcards that cover the subject
// included (ax.<host>.snap.*, ax.>), from any client. interest is the server's count
// (embedded.Server.Interest); it is asked at every cycle, so it must be cheap.
func SnapListeners(subj Subjects, interest func(subject string) int) func(observer.App) int {
	return func(app observer.App) int { return interest(subj.Snap(app.Name)) }
}

// snapStatus is status's view of the diffs: pub's counters, p's apps.
func snapStatus(pub *SnapPublisher, p *live.Poller, subj Subjects) *api.SnapStatus {
	st := &api.SnapStatus{PublisherStats: pub.Stats(), Polled: []observer.AppPollStats{}}
	if p == nil {
		return st
	}
	apps := p.Stats()
	for _, a := range apps {
		if a.Polling {
			st.Polled = append(st.Polled, a)
		}
	}
	switch {
	case len(st.Polled) > 0:
	case len(apps) == 0:
		st.Idle = "no app to poll"
	default:
		st.Idle = "no subscriber: an app's diffs are polled only while someone subscribes to " + subj.Prefix + "." + subj.Host + ".snap.<app>"
	}
	return st
}
