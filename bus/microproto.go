package bus

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"
	"github.com/nats-io/nuid"
)

// The service speaks the NATS micro protocol itself ($SRV.PING, $SRV.INFO, $SRV.STATS, with
// micro's wire types), so that `nats micro stats axbus` tells the truth. nats.go's micro
// measures a request while its handler runs, but axbus handles each request on its own
// goroutine and replies from there (a wait must not hold up the next request): micro counted
// no errors and microseconds of processing. Here a request is counted when its reply goes.

// microService is the micro protocol's view of the service: identity, endpoints, their stats.
type microService struct {
	nc          *nats.Conn
	id          micro.ServiceIdentity
	description string
	started     time.Time

	mu        sync.Mutex
	endpoints []*microEndpoint
	subs      []*nats.Subscription
}

// microEndpoint is one endpoint and what its requests cost.
type microEndpoint struct {
	info  micro.EndpointInfo
	stats micro.EndpointStats
}

func newMicroService(nc *nats.Conn, name, version, description string, metadata map[string]string) *microService {
	return &microService{nc: nc, description: description, started: time.Now().UTC(),
		id: micro.ServiceIdentity{Name: name, ID: nuid.Next(), Version: version, Metadata: metadata}}
}

// addEndpoint lists an endpoint whose requests subscribe takes (on subject, in micro's queue group):
// to a handler, or into a channel that several endpoints share to keep their requests' order;
// subscribe is given the endpoint, whose stats its handler counts.
func (m *microService) addEndpoint(name, subject string, metadata map[string]string,
	subscribe func(ep *microEndpoint, subject, queue string) (*nats.Subscription, error)) error {
	ep := &microEndpoint{
		info:  micro.EndpointInfo{Name: name, Subject: subject, QueueGroup: micro.DefaultQueueGroup, Metadata: metadata},
		stats: micro.EndpointStats{Name: name, Subject: subject, QueueGroup: micro.DefaultQueueGroup},
	}
	sub, err := subscribe(ep, subject, micro.DefaultQueueGroup)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.endpoints = append(m.endpoints, ep)
	m.subs = append(m.subs, sub)
	m.mu.Unlock()
	return nil
}

// done counts one request of ep, answered after took, failed with errMsg when not "".
func (m *microService) done(ep *microEndpoint, took time.Duration, errMsg string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := &ep.stats
	s.NumRequests++
	s.ProcessingTime += took
	s.AverageProcessingTime = s.ProcessingTime / time.Duration(s.NumRequests)
	if errMsg != "" {
		s.NumErrors++
		s.LastError = errMsg
	}
}

// start answers the discovery subjects: every service, those of the name, this instance.
func (m *microService) start() error {
	for _, verb := range []micro.Verb{micro.PingVerb, micro.InfoVerb, micro.StatsVerb} {
		for _, subject := range controlSubjects(verb, m.id.Name, m.id.ID) {
			sub, err := m.nc.Subscribe(subject, func(msg *nats.Msg) { m.answer(verb, msg) })
			if err != nil {
				return err
			}
			m.mu.Lock()
			m.subs = append(m.subs, sub)
			m.mu.Unlock()
		}
	}
	return nil
}

func controlSubjects(verb micro.Verb, name, id string) []string {
	var out []string
	for _, args := range [][2]string{{"", ""}, {name, ""}, {name, id}} {
		if s, err := micro.ControlSubject(verb, args[0], args[1]); err == nil {
			out = append(out, s)
		}
	}
	return out
}

func (m *microService) answer(verb micro.Verb, msg *nats.Msg) {
	var v any
	m.mu.Lock()
	switch verb {
	case micro.PingVerb:
		v = micro.Ping{ServiceIdentity: m.id, Type: micro.PingResponseType}
	case micro.InfoVerb:
		eps := make([]micro.EndpointInfo, len(m.endpoints))
		for i, ep := range m.endpoints {
			eps[i] = ep.info
		}
		v = micro.Info{ServiceIdentity: m.id, Type: micro.InfoResponseType, Description: m.description, Endpoints: eps}
	case micro.StatsVerb:
		eps := make([]*micro.EndpointStats, len(m.endpoints))
		for i, ep := range m.endpoints {
			s := ep.stats
			eps[i] = &s
		}
		v = micro.Stats{ServiceIdentity: m.id, Type: micro.StatsResponseType, Started: m.started, Endpoints: eps}
	}
	m.mu.Unlock()
	if data, err := json.Marshal(v); err == nil {
		_ = msg.Respond(data)
	}
}

// stop unsubscribes everything; requests already taken still finish.
func (m *microService) stop() error {
	m.mu.Lock()
	subs := m.subs
	m.subs = nil
	m.mu.Unlock()
	var first error
	for _, s := range subs {
		if err := s.Drain(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
