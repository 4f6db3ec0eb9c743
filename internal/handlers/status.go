package handlers

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
)

// Status is the status endpoint's handler: what the daemon is and runs, each part's counters,
// and the history's streams as JetStream says. Parts that are nil are not reported.
type Status struct {
	Host, Backend string
	Started       time.Time
	Listen        *api.ListenStatus
	Subjects      api.Subjects
	Stream        string // the host's event stream; "" reports no history
	Conn          *nats.Conn
	Events        *bus.Publisher
	Snaps         *bus.SnapPublisher
	Poller        *live.Poller
	Store         *observer.Store
	Observing     *Observing
	Admission     func() *api.AdmissionStatus // the service's
	// Resources is what the backend holds now (ResourcesOf); nil reports none.
	Resources func() map[string]int
}

// ResourcesOf is b's report of what it holds, when it makes one (observer.ResourceReporter).
func ResourcesOf(b observer.Backend) func() map[string]int {
	if r, ok := b.(observer.ResourceReporter); ok {
		return r.Resources
	}
	return nil
}

// Serve answers a status request.
func (s *Status) Serve(context.Context, api.StatusRequest) (any, error) {
	r := api.StatusReply{Host: s.Host, Version: api.Version, Backend: s.Backend, Started: s.Started,
		Stream: s.Stream, Listen: s.Listen}
	if s.Events != nil {
		r.Events = s.Events.Stats()
	}
	if s.Snaps != nil {
		r.Snaps = snapStatus(s.Snaps, s.Poller, s.Subjects)
	}
	r.Snapshots.Count, r.Snapshots.Bytes = s.Store.Stats()
	if s.Admission != nil {
		r.Admission = s.Admission()
	}
	if s.Observing != nil {
		r.Heavy = s.Observing.HeavyStatus()
	}
	r.Process = processStatus(s.Started)
	if s.Resources != nil {
		r.Resources = s.Resources()
	}
	if s.Stream != "" && s.Conn != nil {
		r.History = &api.HistoryStatus{Events: s.streamStatus(s.Stream), Audit: s.streamStatus(s.Subjects.AuditStreamName())}
	}
	return r, nil
}

// streamStatus is what stream holds against its limits, as JetStream says (its name alone when
// JetStream does not answer).
func (s *Status) streamStatus(stream string) api.StreamStatus {
	st := api.StreamStatus{Name: stream}
	reply, err := s.Conn.Request("$JS.API.STREAM.INFO."+stream, nil, 500*time.Millisecond)
	if err != nil {
		return st
	}
	var info struct {
		Config struct {
			MaxBytes int64         `json:"max_bytes"`
			MaxAge   time.Duration `json:"max_age"`
		} `json:"config"`
		State struct {
			Msgs     uint64 `json:"messages"`
			Bytes    uint64 `json:"bytes"`
			FirstSeq uint64 `json:"first_seq"`
			LastSeq  uint64 `json:"last_seq"`
		} `json:"state"`
	}
	if json.Unmarshal(reply.Data, &info) != nil {
		return st
	}
	st.Messages, st.Bytes, st.FirstSeq, st.LastSeq = info.State.Msgs, info.State.Bytes, info.State.FirstSeq, info.State.LastSeq
	st.MaxBytes, st.MaxAgeSec = info.Config.MaxBytes, int64(info.Config.MaxAge/time.Second)
	if st.FirstSeq > 0 {
		st.Evicted = st.FirstSeq - 1
	} else {
		st.Evicted = st.LastSeq // empty: everything it had is gone
	}
	return st
}

// snapStatus is status's view of the diffs: pub's counters, p's apps.
func snapStatus(pub *bus.SnapPublisher, p *live.Poller, subj api.Subjects) *api.SnapStatus {
	st := &api.SnapStatus{PublisherStats: pub.Stats(), Polled: []model.AppPollStats{}}
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
		st.Idle = "no subscriber: an app's diffs are polled only while someone subscribes to " + strings.TrimSuffix(subj.AllSnaps(), "*") + "<app>"
	}
	return st
}
