package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

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
		return nil, nil, model.Errorf(model.CodeUnavailable, "Retry: a part was lost on the way.",
			"the screenshot arrived damaged: %d bytes, SHA-256 %x; the reply said %d, %s", len(png), sum, r.Bytes, r.SHA256)
	}
	return &r, png, nil
}
