package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

// The fixture apps' control socket: one JSON request line, one JSON reply line per connection.

// State is a fixture app's own view of itself (the "state" control request), read from its widgets.
type State struct {
	Toolkit      string   `json:"toolkit"`
	PID          int      `json:"pid"`
	Name         string   `json:"name"`          // the text of the "Name" entry
	PasswordLen  int      `json:"password_len"`  // the length of the password, never the password
	Remember     bool     `json:"remember"`      // the "Remember me" check box
	Bold         bool     `json:"bold"`          // the "Bold" toggle button
	Notify       bool     `json:"notify"`        // the "Notify me" check box, on the notebook's first page
	Page         int      `json:"page"`          // the notebook's current page, 1-based
	Volume       float64  `json:"volume"`        // the "Volume" slider
	SelectedRow  int      `json:"selected_row"`  // the selected row of "Rows", 1-based; 0 when none
	VisibleRows  []int    `json:"visible_rows"`  // [first, last] rows (1-based) inside the list's viewport
	Focus        string   `json:"focus"`         // accessible name of the focused fixture widget, "" if none
	WindowActive bool     `json:"window_active"` // the main window has the input focus
	DialogOpen   bool     `json:"dialog_open"`   // the "Saved" dialog is open
	Labels       []string `json:"labels"`        // the texts of the labels added to "Messages"
	Saved        bool     `json:"saved"`         // a "Saved" label is present
	Saves        int      `json:"saves"`         // completed saves
	SavedAt      int64    `json:"saved_t_ns"`    // CLOCK_REALTIME ns of the last completed save, 0 if none
	SaveDelayMS  int      `json:"save_delay_ms"` // the delay between a Save press and its effect
	Status       string   `json:"status"`        // the text of the "Status" label
	Buttons      []Button `json:"buttons"`       // the buttons of add_button, in order of addition
	T            int64    `json:"t_ns"`          // CLOCK_REALTIME ns when the state was read
}

// Button is one button added to the fixture window by {"cmd":"add_button"}, as the app sees it.
type Button struct {
	Label       string `json:"label"`          // its label and accessible name
	Index       int    `json:"index"`          // its position in State.Buttons: 0-based, in order of addition
	Sensitive   bool   `json:"sensitive"`      // gtk_widget_get_sensitive
	Clicks      int    `json:"clicks"`         // times its "clicked" fired, however it was activated
	ClickedAt   int64  `json:"clicked_t_ns"`   // CLOCK_REALTIME ns of the last click, 0 if none
	SensitiveAt int64  `json:"sensitive_t_ns"` // CLOCK_REALTIME ns right after the last set_sensitive took effect, 0 if none
}

// ControlError is a request a fixture app refused ({"ok":false,"error":...}).
type ControlError struct {
	Cmd, Message string
}

func (e *ControlError) Error() string {
	return fmt.Sprintf("fixture refused %q: %s", e.Cmd, e.Message)
}

// Do sends one control request (e.g. {"cmd":"set_text","text":"hi"}) and returns the app's reply. Numbers in
// the reply are float64, except the CLOCK_REALTIME nanosecond stamps (keys ending in "_ns"), which are int64.
// A refused request returns the reply and a *ControlError. The context bounds the whole exchange; an app that
// hangs or is stopped makes Do fail when it expires.
func (a *App) Do(ctx context.Context, req map[string]any) (map[string]any, error) {
	line, err := a.roundTrip(ctx, req)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var reply map[string]any
	if err := dec.Decode(&reply); err != nil {
		return nil, fmt.Errorf("headless: %s app %d: bad reply %q: %w", a.Kind, a.PID, clip(line, 200), err)
	}
	for k, v := range reply {
		reply[k] = numbers(v, strings.HasSuffix(k, "_ns"))
	}
	if ok, _ := reply["ok"].(bool); !ok {
		msg, _ := reply["error"].(string)
		cmd, _ := req["cmd"].(string)
		return reply, &ControlError{Cmd: cmd, Message: msg}
	}
	return reply, nil
}

// numbers turns the json.Numbers in v into float64, or int64 for nanosecond stamps.
func numbers(v any, ns bool) any {
	switch v := v.(type) {
	case json.Number:
		if ns {
			i, _ := v.Int64()
			return i
		}
		f, _ := v.Float64()
		return f
	case []any:
		for i := range v {
			v[i] = numbers(v[i], false)
		}
	case map[string]any:
		for k := range v {
			v[k] = numbers(v[k], strings.HasSuffix(k, "_ns"))
		}
	}
	return v
}

// State asks the app for its own state.
func (a *App) State(ctx context.Context) (State, error) {
	var s State
	line, err := a.roundTrip(ctx, map[string]any{"cmd": "state"})
	if err != nil {
		return s, err
	}
	var head struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return s, fmt.Errorf("headless: %s app %d: bad reply %q: %w", a.Kind, a.PID, clip(line, 200), err)
	}
	if !head.OK {
		return s, &ControlError{Cmd: "state", Message: head.Error}
	}
	if err := json.Unmarshal(line, &s); err != nil {
		return s, fmt.Errorf("headless: %s app %d: bad state %q: %w", a.Kind, a.PID, clip(line, 200), err)
	}
	return s, nil
}

// roundTrip is one exchange with the app, its errors naming the app.
func (a *App) roundTrip(ctx context.Context, req map[string]any) ([]byte, error) {
	if a.Socket == "" {
		return nil, fmt.Errorf("headless: %s app %d has no control socket (only the GTK fixtures have one; "+
			"the others print what they did: App.WaitOutput)", a.Kind, a.PID)
	}
	line, err := control(ctx, a.Socket, req)
	if err != nil {
		return nil, fmt.Errorf("headless: %s app %d: %w", a.Kind, a.PID, err)
	}
	return line, nil
}

// FixtureControl sends one control request (e.g. {"cmd":"set_text","text":"hi"}) to the fixture app
// listening on socket and returns its reply, the JSON object the app wrote. A refused request is a
// reply like any other ({"ok":false,"error":...}): App.Do is the client that makes it an error. The
// context bounds the whole exchange.
func FixtureControl(ctx context.Context, socket string, req map[string]any) (json.RawMessage, error) {
	line, err := control(ctx, socket, req)
	if err != nil {
		return nil, fmt.Errorf("headless: fixture %s: %w", socket, err)
	}
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return nil, fmt.Errorf("headless: fixture %s: bad reply %q", socket, clip(line, 200))
	}
	return line, nil
}

// control writes one request line and reads one reply line on a fresh connection, the socket's
// deadline the context's.
func control(ctx context.Context, socket string, req map[string]any) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := conn.Write(append(body, '\n')); err != nil {
		return nil, ioError(ctx, err)
	}
	line, err := bufio.NewReaderSize(conn, 64<<10).ReadBytes('\n')
	if err != nil {
		return nil, ioError(ctx, err)
	}
	return line, nil
}

// ioError says when a read or write failed because the context ended.
func ioError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	case errors.Is(err, os.ErrDeadlineExceeded): // the socket's deadline is the context's, and fired first
		return fmt.Errorf("%w (%v)", context.DeadlineExceeded, err)
	}
	return err
}
