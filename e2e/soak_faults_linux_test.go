package e2e

import (
	"context"
	"syscall"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// faultSchedule carries out the faults at their moments of the run, then waits for its end:
// an app frozen mid-wait, the AT-SPI registry restarted twice, a hub link cut and restored,
// and last the daemon killed (SIGKILL) and started again. The process's resources are judged
// on the samples before that kill: a new process warms up again.
func (s *soakRun) faultSchedule() {
	fleet := s.startFleet()
	at := func(frac float64) bool {
		return s.pause(time.Until(s.start.Add(time.Duration(frac * float64(s.length)))))
	}
	steps := []struct {
		frac float64
		do   func()
	}{
		{0.30, s.freezeMidWait},
		{0.40, s.restartRegistry},
		{0.55, func() { s.cutHub(fleet) }},
		{0.70, s.restartRegistry},
		{0.85, s.restartDaemon},
		{1.00, func() {}},
	}
	for _, st := range steps {
		if !at(st.frac) {
			return
		}
		st.do()
	}
}

// freezeMidWait freezes the GTK4 fixture (SIGSTOP) for 5 s while a wait on it is pending; once
// it runs again the value the wait is for is set, and the wait is met.
func (s *soakRun) freezeMidWait() {
	s.fault("the GTK4 fixture frozen (SIGSTOP) for 5 s mid-wait")
	app := api.AppTarget{PID: s.gtk4.PID}
	met := make(chan error, 1)
	armed := make(chan struct{})
	go func() {
		_, err := s.owner.client.WaitAfter(s.ctx, api.WaitRequest{Expr: `value:role=text_field,name=Name,value="after the freeze"`, AppTarget: app, TimeoutMS: 30000},
			func(context.Context) error { close(armed); return nil })
		met <- err
	}()
	select {
	case <-armed:
	case <-s.ctx.Done():
		return
	}
	_ = s.gtk4.Stop()
	s.pause(5 * time.Second) // the freeze's length is the fault itself
	_ = s.gtk4.Cont()
	s.track("set_value", api.ChainDeadline+5*time.Second, func(ctx context.Context) error {
		_, err := s.owner.client.Act(ctx, "set_value", api.ActionRequest{AppTarget: app, Locator: "role=text_field,name=Name", Value: "after the freeze"})
		return err
	})
	if err := <-met; err != nil && s.ctx.Err() == nil {
		s.t.Errorf("the wait across the freeze: %v", err)
	}
}

// restartRegistry kills the session's AT-SPI registry; the bus starts it again when next asked.
func (s *soakRun) restartRegistry() {
	conn, err := dbus.Connect(s.sess.A11yBus)
	if err != nil {
		s.t.Errorf("the accessibility bus: %v", err)
		return
	}
	defer conn.Close()
	var pid uint32
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetConnectionUnixProcessID", 0, "org.a11y.atspi.Registry").Store(&pid); err != nil {
		s.t.Errorf("the registry's process: %v", err)
		return
	}
	s.fault("the AT-SPI registry killed (SIGKILL)")
	_ = syscall.Kill(int(pid), syscall.SIGKILL)
}

// restartDaemon kills the daemon (SIGKILL) and starts it again on its state dir: its history
// keeps every event stored before the kill, and the clients reconnect by themselves.
func (s *soakRun) restartDaemon() {
	before := s.lastStored()
	s.killed.Store(true)
	s.fault("the daemon killed (SIGKILL) and started again")
	from := s.elapsed()
	s.daemon.kill(syscall.SIGKILL)
	s.daemon.start(s.t)
	s.faultsMu.Lock()
	s.restart = [2]time.Duration{from, s.elapsed() + soakLate} // the clients' reconnects follow
	s.faultsMu.Unlock()
	if after := s.lastStored(); after < before {
		s.t.Errorf("the history after the restart ends at event %d; before the kill it held %d", after, before)
	}
}

// lastStored is the sequence of the newest event the history holds, once status can say (a
// daemon just started reports its streams a moment later).
func (s *soakRun) lastStored() uint64 {
	var last uint64
	testkit.Within(10*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		defer cancel()
		st, err := s.owner.client.Status(ctx)
		if err == nil && st.History != nil {
			last = st.History.Events.LastSeq
		}
		return last > 0
	})
	return last
}

// startFleet is two simulated hosts joined to a hub, asked for their apps through it every
// second while the run lasts: what the hub link's cut must not lose.
func (s *soakRun) startFleet() *testdaemon.Fleet {
	f := testdaemon.StartFleet(s.t, []string{"sim1", "sim2"}, map[string]daemon.HubClient{}, nil)
	admin := f.Client(s.t, f.Hub.AdminSeedFile)
	for _, h := range []string{"sim1", "sim2"} {
		c := testdaemon.On(s.t, admin, h)
		s.loop("fleet "+h, func() {
			for s.pause(time.Second) {
				s.watchdog.Beat("fleet " + h)
				s.track("fleet", 5*time.Second, func(ctx context.Context) error { _, err := c.Apps(ctx); return err })
			}
		})
	}
	return f
}

// cutHub stops the hub and starts it again where it was; the hosts rejoin by themselves.
func (s *soakRun) cutHub(f *testdaemon.Fleet) {
	s.fault("the hub's links cut (the hub stopped) and restored")
	f.Hub.Shutdown()
	f.JoinedAgain(s.t)
}
