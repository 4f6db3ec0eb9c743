package flows

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/commands"
	"github.com/axbus/axbus/observer"
)

// Recorder keeps the recordings going on the host: each turns the actions it hears of into a
// flow's steps (a person's input too, where the desktop's input can be heard).
type Recorder struct {
	o       *observer.Observer
	actions *commands.Engine

	mu         sync.Mutex
	recordings map[string]*recording // by id
}

// recording is one recording: whose actions it takes, the steps so far (each made on its own
// goroutine: its expect may read the window), and how it stops.
type recording struct {
	id, owner, agent, name string
	stop                   func()
	pending                sync.WaitGroup

	mu    sync.Mutex
	steps []*api.FlowStep // nil: an action not kept (its expect was not met); api.MaxFlowSteps at most
}

// NewRecorder records the actions done through actions, reading windows through o.
func NewRecorder(o *observer.Observer, actions *commands.Engine) *Recorder {
	return &Recorder{o: o, actions: actions, recordings: map[string]*recording{}}
}

// Serve starts or stops a recording for the identity of ctx.
func (r *Recorder) Serve(ctx context.Context, req api.RecordRequest) (*api.RecordReply, error) {
	who := api.IdentityOf(ctx)
	switch req.Op {
	case "start":
		return r.start(who, req)
	case "stop":
		return r.stopRecording(who, req.Recording)
	}
	return nil, model.Errorf(model.CodeBadRequest, "Use op start or stop.", "unknown op %q", req.Op)
}

func (r *Recorder) start(who api.Identity, req api.RecordRequest) (*api.RecordReply, error) {
	agent := req.Agent
	if who.Role != api.RoleAdmin {
		switch {
		case req.Person:
			return nil, model.Errorf(model.CodePermissionDenied, "Ask an admin to record a person's input.", "only an admin records a person's mouse and keyboard")
		case agent != "" && agent != who.Name:
			return nil, model.Errorf(model.CodePermissionDenied, "Record your own actions (leave agent out), or ask an admin.", "only an admin records another identity's actions")
		}
		agent = who.Name
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, rec := range r.recordings {
		if rec.owner == who.Name {
			n++
		}
	}
	if n >= api.MaxRecordings {
		return nil, model.Errorf(model.CodeBusy, "Stop one of your recordings first.", "%s has %d recordings going, the most one identity may", who.Name, n)
	}
	rec := &recording{id: newID(), owner: who.Name, agent: agent, name: req.Name}
	var you *person
	if req.Person {
		var err error
		if you, err = startPerson(rec, r.o); err != nil {
			return nil, err
		}
	}
	stopActions := r.actions.OnDone(commands.Listener{
		Before: func(ctx context.Context, snap *observer.Snapshot) any {
			if rec.agent != "" && api.IdentityOf(ctx).Name != rec.agent {
				return nil
			}
			return windowText(ctx, r.o, snap)
		},
		Done: func(d commands.Done) {
			if rec.agent == "" || d.Agent.Name == rec.agent {
				rec.note(r.o, d)
			}
		},
	})
	rec.stop = func() {
		stopActions()
		if you != nil {
			you.stop()
		}
	}
	r.recordings[rec.id] = rec
	return &api.RecordReply{Recording: rec.id}, nil
}

func (r *Recorder) stopRecording(who api.Identity, id string) (*api.RecordReply, error) {
	r.mu.Lock()
	rec := r.recordings[id]
	if rec == nil || (rec.owner != who.Name && who.Role != api.RoleAdmin) {
		r.mu.Unlock()
		return nil, model.Errorf(model.CodeBadRequest, "Give the id record start answered (recording).", "no recording %q of yours", model.Excerpt(id))
	}
	delete(r.recordings, id)
	r.mu.Unlock()
	rec.stop()
	rec.pending.Wait()
	return &api.RecordReply{Recording: id, Flow: rec.flow()}, nil
}

// Close stops every recording.
func (r *Recorder) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, rec := range r.recordings {
		rec.stop()
		delete(r.recordings, id)
	}
}

// note makes a step of an action done: its slot is taken now, in the order of the actions;
// its expect is made on a goroutine of its own.
func (rec *recording) note(o *observer.Observer, d commands.Done) {
	rec.mu.Lock()
	if len(rec.steps) >= api.MaxFlowSteps {
		rec.mu.Unlock()
		return
	}
	slot := len(rec.steps)
	rec.steps = append(rec.steps, nil)
	rec.mu.Unlock()
	rec.pending.Add(1)
	go func() {
		defer rec.pending.Done()
		ctx, cancel := context.WithTimeout(context.Background(), model.WholeBudget().Deadline)
		defer cancel()
		s := stepOf(ctx, o, d)
		rec.mu.Lock()
		rec.steps[slot] = s
		rec.mu.Unlock()
	}()
}

// add appends a step made at once (a person's).
func (rec *recording) add(s *api.FlowStep) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.steps) >= api.MaxFlowSteps {
		return
	}
	rec.steps = append(rec.steps, s)
}

func (rec *recording) flow() *api.Flow {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	f := &api.Flow{Version: api.FlowVersion, Name: rec.name, Steps: []api.FlowStep{}}
	for _, s := range rec.steps {
		if s != nil {
			f.Steps = append(f.Steps, *s)
		}
	}
	return f
}

func newID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "r_" + hex.EncodeToString(b)
}
