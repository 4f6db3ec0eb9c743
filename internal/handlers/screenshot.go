package handlers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer/screen"
)

// The bytes of the PNGs kept for their parts, in all and of one identity: an identity past its
// share loses its own oldest, and the store past its bound the oldest of the identity that keeps
// the most, so that no identity's screenshots evict those of one that keeps less. An identity's
// newest is kept whatever its size, for its parts to be fetched.
const (
	maxShotsKept            = 128 << 20
	maxShotsKeptPerIdentity = 32 << 20
)

// shotStore keeps screenshots' PNGs until their parts are fetched, for ShotKept.
type shotStore struct {
	mu    sync.Mutex
	shots []keptShot // oldest first
	bytes int
}

type keptShot struct {
	id, holder string
	png        []byte
	expires    time.Time
}

func (st *shotStore) put(holder string, png []byte) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	st.mu.Lock()
	defer st.mu.Unlock()
	now := time.Now()
	st.shots = slices.DeleteFunc(st.shots, func(s keptShot) bool {
		if now.After(s.expires) {
			st.bytes -= len(s.png)
			return true
		}
		return false
	})
	st.shots = append(st.shots, keptShot{id: id, holder: holder, png: png, expires: now.Add(api.ShotKept)})
	st.bytes += len(png)
	evicted := true
	for evicted && st.kept(holder) > maxShotsKeptPerIdentity {
		evicted = st.evictOldest(holder, id)
	}
	for evicted = true; evicted && st.bytes > maxShotsKept; {
		evicted = st.evictOldest(st.biggestHolder(id), id)
	}
	return id
}

// kept is the bytes holder keeps.
func (st *shotStore) kept(holder string) int {
	n := 0
	for _, s := range st.shots {
		if s.holder == holder {
			n += len(s.png)
		}
	}
	return n
}

// biggestHolder is the identity that keeps the most bytes but for the screenshot keep.
func (st *shotStore) biggestHolder(keep string) string {
	by := map[string]int{}
	for _, s := range st.shots {
		if s.id != keep {
			by[s.holder] += len(s.png)
		}
	}
	best := ""
	for h, n := range by {
		if n > by[best] || n == by[best] && h < best {
			best = h
		}
	}
	return best
}

// evictOldest drops holder's oldest screenshot but keep, and says whether there was one.
func (st *shotStore) evictOldest(holder, keep string) bool {
	for i, s := range st.shots {
		if s.holder == holder && s.id != keep {
			st.bytes -= len(s.png)
			st.shots = slices.Delete(st.shots, i, i+1)
			return true
		}
	}
	return false
}

// part is part i of holder's screenshot id.
func (st *shotStore) part(holder, id string, i int) ([]byte, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, s := range st.shots {
		if s.id != id || time.Now().After(s.expires) {
			continue
		}
		if s.holder != holder {
			return nil, model.Errorf(model.CodePermissionDenied, "Take a screenshot yourself: its parts are the taker's alone.",
				"screenshot %s is another identity's", id)
		}
		start := i * api.ShotPartSize
		if i < 0 || start >= len(s.png) {
			return nil, model.Errorf(model.CodeBadRequest, "Ask for the parts from 0 to the reply's parts - 1.", "screenshot %s has no part %d", id, i)
		}
		return s.png[start:min(start+api.ShotPartSize, len(s.png))], nil
	}
	return nil, model.Errorf(model.CodeSnapshotExpired, "Take the screenshot again: its parts are kept 2 minutes, for the identity that took it.",
		"no screenshot %s of yours is kept", id)
}

// Screenshot takes it in a turn of heavy work of the requester's, keeps its PNG for its parts and
// replies with what the parts add up to.
func (o *Observing) Screenshot(ctx context.Context, r api.ScreenshotRequest) (any, error) {
	shot, err := screen.Screenshot(ctx, o.obs, screen.Request{App: r.Query(), Window: r.Window, Region: r.Region,
		MaxSide: r.MaxSide, MaxBytes: r.MaxBytes, Admit: o.admitShot})
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(shot.PNG)
	reply := api.ScreenshotReply{Format: "png", Width: shot.Width, Height: shot.Height, Scale: shot.Scale,
		Bounds: shot.Bounds, App: shot.App, Window: shot.Window, Blanked: shot.Blanked,
		ID: o.shots.put(api.IdentityOf(ctx).Name, shot.PNG), Bytes: len(shot.PNG), SHA256: hex.EncodeToString(sum[:]),
		Parts: (len(shot.PNG) + api.ShotPartSize - 1) / api.ShotPartSize}
	if r.OCR {
		reply.RecognizedText = o.recognize(ctx, shot)
	}
	return reply, nil
}

// ScreenshotPart is one part of a screenshot the requester took.
func (o *Observing) ScreenshotPart(ctx context.Context, r api.ScreenshotPartRequest) (any, error) {
	b, err := o.shots.part(api.IdentityOf(ctx).Name, r.ID, r.Part)
	if err != nil {
		return nil, err
	}
	return &bus.Encoded{Data: b}, nil
}

// recognizeWindow is the text recognised in a screenshot of the inspected window; a screenshot
// that fails is its error, never the inspection's.
func (o *Observing) recognizeWindow(ctx context.Context, insp *model.Inspection) *model.RecognizedText {
	shot, err := screen.Screenshot(ctx, o.obs, screen.Request{App: model.AppQuery{PID: insp.App.PID}, Window: insp.Window.ID,
		Admit: o.admitShot})
	if err != nil {
		return &model.RecognizedText{From: model.RecognizedFrom, Lines: []model.RecognizedLine{}, Error: model.AsError(err)}
	}
	return o.recognize(ctx, shot)
}

// recognize is the text recognised in shot, in a turn of heavy work of the requester's (the
// recogniser's own memory is its process's: the turn bounds how many run, weighed by the PNG).
func (o *Observing) recognize(ctx context.Context, shot *screen.Shot) *model.RecognizedText {
	release, err := o.gate.acquire(ctx, api.IdentityOf(ctx).Name, int64(len(shot.PNG)))
	if err != nil {
		return &model.RecognizedText{From: model.RecognizedFrom, Lines: []model.RecognizedLine{}, Error: model.AsError(err)}
	}
	defer release()
	return screen.Recognize(ctx, o.recognizer, shot.PNG, shot.Width, shot.Height)
}
