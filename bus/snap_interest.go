package bus

import (
	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/model"
)

// SnapListeners is a daemon's observer.PollWhen function: how many subscriptions of its NATS
// server receive app's diffs on <prefix>.<host>.snap.<app>, wildcards that cover the subject
// included (ax.<host>.snap.*, ax.>), from any client. interest is the server's count
// (embedded.Server.Interest); it is asked at every cycle, so it must be cheap.
func SnapListeners(subj api.Subjects, interest func(subject string) int) func(model.App) int {
	return func(app model.App) int { return interest(subj.Snap(app.Name)) }
}
