package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
)

// cdp is a Chrome DevTools Protocol client over --remote-debugging-pipe: Chromium reads requests from its fd 3
// and writes replies and events to its fd 4, each message one JSON object ended by a NUL byte. Requests carry
// increasing ids; one reader goroutine hands each reply to the request of its id. Events are dropped: nothing
// here enables a domain, so only a few come.
type cdp struct {
	w *os.File // Chromium's fd 3
	r *os.File // Chromium's fd 4

	wmu sync.Mutex // one message at a time on the pipe

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan cdpReply
	err     error         // why the reader ended, set before done closes
	done    chan struct{} // closed when the reader ends (Chromium closed its end, or close)
}

type cdpReply struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    string `json:"data"`
	} `json:"error"`
}

// newCDP starts the reader on r; w is where requests go.
func newCDP(w, r *os.File) *cdp {
	c := &cdp{w: w, r: r, pending: map[int64]chan cdpReply{}, done: make(chan struct{})}
	go c.read()
	return c
}

func (c *cdp) read() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var err error
	for {
		var msg []byte
		if msg, err = br.ReadBytes(0); err != nil {
			break
		}
		var rep cdpReply
		if json.Unmarshal(msg[:len(msg)-1], &rep) != nil || rep.ID == 0 {
			continue // an event, or garbage
		}
		c.mu.Lock()
		ch := c.pending[rep.ID]
		delete(c.pending, rep.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- rep // buffered
		}
	}
	c.mu.Lock()
	c.err = fmt.Errorf("devtools pipe closed (%v)", err)
	c.mu.Unlock()
	close(c.done)
}

// call sends one request (to a target's session when sessionID is set) and stores its result in out (if not
// nil). A protocol error is an error.
func (c *cdp) call(ctx context.Context, sessionID, method string, params, out any) error {
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	}
	c.nextID++
	id := c.nextID
	ch := make(chan cdpReply, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	req := struct {
		ID        int64  `json:"id"`
		SessionID string `json:"sessionId,omitempty"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
	}{id, sessionID, method, params}
	b, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	c.wmu.Lock()
	_, err = c.w.Write(append(b, 0))
	c.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case rep := <-ch:
		if rep.Error != nil {
			return fmt.Errorf("%s: %s (%d) %s", method, rep.Error.Message, rep.Error.Code, rep.Error.Data)
		}
		if out != nil {
			if err := json.Unmarshal(rep.Result, out); err != nil {
				return fmt.Errorf("%s: bad result %s: %w", method, clip(rep.Result, 200), err)
			}
		}
		return nil
	case <-c.done:
		c.mu.Lock()
		defer c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, c.err)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// close closes both pipe ends, which ends the reader.
func (c *cdp) close() {
	_ = c.w.Close()
	_ = c.r.Close()
}

// attachPage attaches to the first page target and returns the session id of the attachment (flat mode:
// requests to the page carry it).
func (c *cdp) attachPage(ctx context.Context) (string, error) {
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
			URL      string `json:"url"`
		} `json:"targetInfos"`
	}
	if err := c.call(ctx, "", "Target.getTargets", nil, &targets); err != nil {
		return "", err
	}
	for _, t := range targets.TargetInfos {
		if t.Type != "page" {
			continue
		}
		var att struct {
			SessionID string `json:"sessionId"`
		}
		err := c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": t.TargetID, "flatten": true}, &att)
		if err != nil {
			return "", err
		}
		return att.SessionID, nil
	}
	return "", errNoPage
}

var errNoPage = errors.New("no page target yet")

// evaluate evaluates a JavaScript expression in the page of session (awaiting a promise) and returns its value
// as JSON; a thrown exception is an error. An expression whose value is undefined returns null.
func (c *cdp) evaluate(ctx context.Context, session, js string) (json.RawMessage, error) {
	var res struct {
		Result struct {
			Type        string          `json:"type"`
			Value       json.RawMessage `json:"value"`
			Description string          `json:"description"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{"expression": js, "returnByValue": true, "awaitPromise": true}
	if err := c.call(ctx, session, "Runtime.evaluate", params, &res); err != nil {
		return nil, err
	}
	if e := res.ExceptionDetails; e != nil {
		msg := e.Text
		if e.Exception != nil && e.Exception.Description != "" {
			msg = e.Exception.Description
		}
		return nil, fmt.Errorf("the page threw: %s (Runtime.evaluate)", msg)
	}
	if len(res.Result.Value) == 0 {
		return json.RawMessage("null"), nil
	}
	return res.Result.Value, nil
}
