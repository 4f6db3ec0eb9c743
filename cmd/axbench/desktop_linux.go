package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/atspi"
)

func init() {
	platformSuites = append(platformSuites, suite{"atspi-walk", benchATSPIWalk})
}

// desktop is a private headless desktop with one fixture app.
func desktop(kind string) (*headless.Session, *headless.App, func(), error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := headless.Start(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	app, err := s.StartApp(ctx, kind)
	if err != nil {
		_ = s.Close()
		return nil, nil, nil, err
	}
	return s, app, func() { _ = s.Close() }, nil
}

func openATSPI(s *headless.Session, opts ...atspi.Option) (*atspi.Backend, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return atspi.Open(ctx, append([]atspi.Option{atspi.WithSessionBus(s.SessionBus), atspi.WithA11yBus(s.A11yBus), atspi.WithDisplay(s.Display), atspi.WithXAuthority(s.XAuthority)}, opts...)...)
}

// walkTimes walks root with a fresh backend (cold: no cached roles or interfaces) and then
// again (warm), returning both times and the element count; coldCPU and warmCPU, when not nil,
// meter each walk.
func walkTimes(s *headless.Session, pid int, list bool, coldCPU, warmCPU *cpuMeter, opts ...atspi.Option) (cold, warm time.Duration, n int, err error) {
	b, err := openATSPI(s, opts...)
	if err != nil {
		return 0, 0, 0, err
	}
	defer b.Close()
	// Watching, as the daemon always is: events then say what a warm walk may keep (texts,
	// children) instead of asking again.
	stopWatch, err := b.Watch(func(model.Event) {})
	if err != nil {
		return 0, 0, 0, err
	}
	defer stopWatch()
	ctx := context.Background()
	wins, err := b.Windows(ctx, pid)
	if err != nil || len(wins) == 0 {
		return 0, 0, 0, fmt.Errorf("no window: %v", err)
	}
	root := wins[0].Ref
	if list { // the 400-row list: found by a first walk, timed from a fresh backend below
		root, err = findRows(s, pid)
		if err != nil {
			return 0, 0, 0, err
		}
	}
	walk := func(m *cpuMeter) (d time.Duration, n int, err error) {
		if m == nil {
			m = newCPUMeter()
		}
		err = m.span(func() error {
			t0 := time.Now()
			res := observer.Walk(ctx, b, root, observer.WalkOptions{Budget: model.WideBudget()})
			d, n = time.Since(t0), len(res.Nodes)
			if res.Incomplete {
				return fmt.Errorf("walk incomplete: %v", res.Truncation)
			}
			return nil
		})
		return d, n, err
	}
	if cold, n, err = walk(coldCPU); err != nil {
		return
	}
	warm, _, err = walk(warmCPU)
	return
}

// findRows returns the ref of the fixture's 400-row list.
func findRows(s *headless.Session, pid int) (model.NodeRef, error) {
	b, err := openATSPI(s)
	if err != nil {
		return "", err
	}
	defer b.Close()
	ctx := context.Background()
	wins, err := b.Windows(ctx, pid)
	if err != nil || len(wins) == 0 {
		return "", fmt.Errorf("no window: %v", err)
	}
	res := observer.Walk(ctx, b, wins[0].Ref, observer.WalkOptions{Budget: model.WideBudget()})
	for _, w := range res.Nodes {
		if w.Role == model.RoleList && w.ChildCount >= headless.FixtureRows {
			return w.Ref, nil
		}
	}
	return "", fmt.Errorf("no 400-row list in the window")
}

// pyatspiWalk runs the peer: python3-pyatspi walking the same window, rounds times in one
// process; the first round is cold, the others warm.
func pyatspiWalk(s *headless.Session, pid int, title string, rounds int) (cold time.Duration, warm []time.Duration, n int, err error) {
	dir, err := headless.FixtureDir()
	if err != nil {
		return 0, nil, 0, err
	}
	cmd := exec.Command(headless.Python, filepath.Join(dir, "..", "peers", "pyatspi_walk.py"), strconv.Itoa(pid), title, strconv.Itoa(rounds))
	cmd.Env = s.Env()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, nil, 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, nil, 0, err
	}
	sc := bufio.NewScanner(out)
	for i := 0; sc.Scan(); i++ {
		var r struct {
			Elements int     `json:"elements"`
			MS       float64 `json:"ms"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return 0, nil, 0, fmt.Errorf("pyatspi: %s", sc.Text())
		}
		d := time.Duration(r.MS * float64(time.Millisecond))
		if i == 0 {
			cold, n = d, r.Elements
		} else {
			warm = append(warm, d)
		}
	}
	return cold, warm, n, cmd.Wait()
}

// benchATSPIWalk: our pipelined walk against a one-call-at-a-time walk of the same tree and
// against python3-pyatspi, side by side, on the GTK3 fixture window and its 400-row list.
func benchATSPIWalk() ([]row, error) {
	s, app, stop, err := desktop(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	var rows []row
	for _, target := range []struct {
		name string
		list bool
	}{{"GTK3 fixture window", false}, {"GTK3 400-row list", true}} {
		var pc, pw, sc, sw, yc, yw []time.Duration
		var n, yn int
		// How busy the app and we were during our walks: an app on a core the whole walk is
		// answering as fast as it can.
		coldCPU, warmCPU := newCPUMeter(app.PID, os.Getpid()), newCPUMeter(app.PID, os.Getpid())
		for range 5 { // interleaved rounds
			c, w, k, err := walkTimes(s, app.PID, target.list, coldCPU, warmCPU)
			if err != nil {
				return rows, err
			}
			pc, pw, n = append(pc, c), append(pw, w), k
			if c, w, _, err = walkTimes(s, app.PID, target.list, nil, nil, atspi.WithSequentialReads()); err != nil {
				return rows, err
			}
			sc, sw = append(sc, c), append(sw, w)
			if !target.list {
				c, ws, k, err := pyatspiWalk(s, app.PID, headless.WindowTitle(headless.KindGTK3), 3)
				if err != nil {
					return rows, err
				}
				yc, yw, yn = append(yc, c), append(yw, ws...), k
			}
		}
		note := fmt.Sprintf("%d elements, medians of 5 interleaved rounds, watching events as the daemon does", n)
		coldPer, warmPer := percentile(pc, 50)/time.Duration(max(n, 1)), percentile(pw, 50)/time.Duration(max(n, 1))
		walk := row{"atspi walk", target.name + ": ours (pipelined), cold / warm", ms(percentile(pc, 50)) + " / " + ms(percentile(pw, 50)),
			fmt.Sprintf("%s; %s / %s per element; the app on a core %.0f%% / %.0f%% of the walk, axbus %.0f%% / %.0f%%", note, us(coldPer), us(warmPer),
				coldCPU.share(0), warmCPU.share(0), coldCPU.share(1), warmCPU.share(1)), "", ""}
		if !target.list {
			walk.target, walk.verdict = "<= 150 / 100 µs per element", verdict(coldPer <= 150*time.Microsecond && warmPer <= 100*time.Microsecond)
		}
		coldX, warmX := float64(percentile(sc, 50))/float64(percentile(pc, 50)), float64(percentile(sw, 50))/float64(percentile(pw, 50))
		rows = append(rows, walk,
			row{"atspi walk", target.name + ": sequential one call at a time, cold / warm", ms(percentile(sc, 50)) + " / " + ms(percentile(sw, 50)), note, "", ""},
			row{"atspi walk", target.name + ": ours vs sequential, cold / warm",
				ratio(percentile(sc, 50), percentile(pc, 50)) + " / " + ratio(percentile(sw, 50), percentile(pw, 50)), "same tree, same reads",
				">= 4x", verdict(coldX >= 4 && warmX >= 4)})
		if !target.list {
			rows = append(rows,
				row{"atspi walk", target.name + ": python3-pyatspi, cold / warm", ms(percentile(yc, 50)) + " / " + ms(percentile(yw, 50)),
					fmt.Sprintf("%d elements; the peer reads role, name, description, states, extents, text, value", yn), "", ""},
				row{"atspi walk", target.name + ": ours vs python3-pyatspi, cold / warm",
					ratio(percentile(yc, 50), percentile(pc, 50)) + " / " + ratio(percentile(yw, 50), percentile(pw, 50)), "",
					">= 4x", verdict(float64(percentile(yc, 50)) >= 4*float64(percentile(pc, 50)) && float64(percentile(yw, 50)) >= 4*float64(percentile(pw, 50)))})
		}
	}
	return rows, nil
}

// desktopDaemon is a daemon on the AT-SPI backend of a private headless desktop running one
// fixture app, and a client of it over TCP.
type desktopDaemon struct {
	*clientDaemon
	app     *headless.App
	session *headless.Session
}

func startDesktopDaemon(kind string) (*desktopDaemon, func(), error) {
	return startSessionDaemon(60*time.Second, func(ctx context.Context, s *headless.Session) (*headless.App, error) {
		return s.StartApp(ctx, kind)
	})
}

// startSessionDaemon starts a private headless desktop, the app start starts in it (within
// bound), and a daemon on it with a client over TCP.
func startSessionDaemon(bound time.Duration, start func(context.Context, *headless.Session) (*headless.App, error)) (*desktopDaemon, func(), error) {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	s, err := headless.Start(ctx)
	if err != nil {
		return nil, nil, err
	}
	app, err := start(ctx, s)
	if err != nil {
		_ = s.Close()
		return nil, nil, err
	}
	d, stop, err := startWithClient(sessionConfig(s))
	if err != nil {
		_ = s.Close()
		return nil, nil, err
	}
	// No warm-up: with nobody subscribed to ax.<host>.snap.<app> the poller reads nothing, so
	// the daemon measured is the one an agent meets, reading an app only when asked.
	return &desktopDaemon{clientDaemon: d, app: app, session: s}, func() { stop(); _ = s.Close() }, nil
}

// sessionConfig is a daemon on the AT-SPI backend of the headless desktop s.
func sessionConfig(s *headless.Session) daemon.Config {
	return daemon.Config{Backend: "atspi", SessionBus: s.SessionBus, A11yBus: s.A11yBus, Display: s.Display, XAuthority: s.XAuthority}
}
