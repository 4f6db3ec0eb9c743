package bus

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
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
			return nil, observer.Errorf(observer.CodePermissionDenied, "Take a screenshot yourself: its parts are the taker's alone.",
				"screenshot %s is another identity's", id)
		}
		start := i * api.ShotPartSize
		if i < 0 || start >= len(s.png) {
			return nil, observer.Errorf(observer.CodeBadRequest, "Ask for the parts from 0 to the reply's parts - 1.", "screenshot %s has no part %d", id, i)
		}
		return s.png[start:min(start+api.ShotPartSize, len(s.png))], nil
	}
	return nil, observer.Errorf(observer.CodeSnapshotExpired, "Take the screenshot again: its parts are kept 2 minutes, for the identity that took it.",
		"no screenshot %s of yours is kept", id)
}

// screenshot takes it in a turn of heavy work of the requester's, keeps its PNG for its parts and
// replies with what the parts add up to.
func (s *Service) screenshot(ctx context.Context, r api.ScreenshotRequest) (any, error) {
	shot, err := screen.Screenshot(ctx, s.obs, screen.Request{App: r.Query(), Window: r.Window, Region: r.Region,
		MaxSide: r.MaxSide, MaxBytes: r.MaxBytes, Admit: s.admitShot})
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(shot.PNG)
	reply := api.ScreenshotReply{Format: "png", Width: shot.Width, Height: shot.Height, Scale: shot.Scale,
		Bounds: shot.Bounds, App: shot.App, Window: shot.Window, Blanked: shot.Blanked,
		ID: s.shots.put(api.IdentityOf(ctx).Name, shot.PNG), Bytes: len(shot.PNG), SHA256: hex.EncodeToString(sum[:]),
		Parts: (len(shot.PNG) + api.ShotPartSize - 1) / api.ShotPartSize}
	if r.OCR {
		reply.RecognizedText = s.recognize(ctx, shot)
	}
	return reply, nil
}

func (s *Service) screenshotPart(ctx context.Context, r api.ScreenshotPartRequest) (any, error) {
	b, err := s.shots.part(api.IdentityOf(ctx).Name, r.ID, r.Part)
	if err != nil {
		return nil, err
	}
	return &Encoded{Data: b}, nil
}

// recognizeWindow is the text recognised in a screenshot of the inspected window; a screenshot
// that fails is its error, never the inspection's.
func (s *Service) recognizeWindow(ctx context.Context, insp *observer.Inspection) *observer.RecognizedText {
	shot, err := screen.Screenshot(ctx, s.obs, screen.Request{App: observer.AppQuery{PID: insp.App.PID}, Window: insp.Window.ID,
		Admit: s.admitShot})
	if err != nil {
		return &observer.RecognizedText{From: observer.RecognizedFrom, Lines: []observer.RecognizedLine{}, Error: observer.AsError(err)}
	}
	return s.recognize(ctx, shot)
}

// recognize is the text recognised in shot, in a turn of heavy work of the requester's (the
// recogniser's own memory is its process's: the turn bounds how many run, weighed by the PNG).
func (s *Service) recognize(ctx context.Context, shot *screen.Shot) *observer.RecognizedText {
	release, err := s.heavyGate.acquire(ctx, api.IdentityOf(ctx).Name, int64(len(shot.PNG)))
	if err != nil {
		return &observer.RecognizedText{From: observer.RecognizedFrom, Lines: []observer.RecognizedLine{}, Error: observer.AsError(err)}
	}
	defer release()
	return screen.Recognize(ctx, s.recognizer, shot.PNG, shot.Width, shot.Height)
}

// shotsInFlight is how many parts a client asks for at once: a window of them, so that the
// daemon never sends a client more than it reads (past its pending limit the server cuts it off).
const shotsInFlight = 4

// Screenshot takes a screenshot and fetches its PNG part by part, a few in flight, checked
// against the reply's size and SHA-256.
func (c *Client) Screenshot(ctx context.Context, req api.ScreenshotRequest) (*api.ScreenshotReply, []byte, error) {
	var r api.ScreenshotReply
	if err := c.Call(ctx, "screenshot", req, &r); err != nil {
		return nil, nil, err
	}
	parts := make([][]byte, r.Parts)
	errs := make(chan error, r.Parts)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(shotsInFlight, r.Parts) {
		wg.Go(func() {
			for i := range next {
				var raw json.RawMessage
				err := c.Call(ctx, "screenshot_part", api.ScreenshotPartRequest{ID: r.ID, Part: i}, &raw)
				parts[i] = raw
				errs <- err
			}
		})
	}
	for i := range r.Parts {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	png := make([]byte, 0, r.Bytes)
	for _, p := range parts {
		png = append(png, p...)
	}
	if sum := sha256.Sum256(png); len(png) != r.Bytes || hex.EncodeToString(sum[:]) != r.SHA256 {
		return nil, nil, observer.Errorf(observer.CodeUnavailable, "Retry: a part was lost on the way.",
			"the screenshot arrived damaged: %d bytes, SHA-256 %x; the reply said %d, %s", len(png), sum, r.Bytes, r.SHA256)
	}
	return &r, png, nil
}
