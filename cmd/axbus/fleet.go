package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
)

// hostApps are one host's apps, or why it did not say.
type hostApps struct {
	Host  string          `json:"host"`
	Apps  []observer.App  `json:"apps"`
	Error *observer.Error `json:"error,omitempty"`
}

// fleetApps are the apps of every host the connection reaches (apps --host '*').
type fleetApps struct {
	Hosts []hostApps `json:"hosts"`
}

func (f *fleetApps) human(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tPID\tNAME\tTOOLKIT")
	for _, h := range f.Hosts {
		if h.Error != nil {
			fmt.Fprintf(tw, "%s\t-\t%s: %s\t\n", h.Host, h.Error.Code, h.Error.Message)
		}
		for _, a := range h.Apps {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", h.Host, a.PID, a.Name, a.Toolkit)
		}
	}
	return tw.Flush()
}

// everyHost lists the apps of every host discovered, asked side by side.
func (c *appsCmd) everyHost(e *env) error {
	conn := c.connFlags
	conn.Host = ""
	client, closeConn, err := conn.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := conn.replyContext(e.ctx)
	defer cancel()
	hosts, err := bus.Hosts(ctx, client.Conn(), 500*time.Millisecond)
	if err != nil {
		return err
	}
	out := &fleetApps{Hosts: make([]hostApps, len(hosts))}
	done := make(chan struct{}, len(hosts))
	for i, h := range hosts {
		out.Hosts[i].Host = h.Host
		go func() {
			defer func() { done <- struct{}{} }()
			hc, err := bus.NewClient(ctx, client.Conn(), bus.WithHost(h.Host), bus.WithPrefix(c.Prefix))
			if err == nil {
				out.Hosts[i].Apps, err = hc.Apps(ctx)
			}
			if err != nil {
				out.Hosts[i].Error = observer.AsError(err)
			}
		}()
	}
	for range hosts {
		<-done
	}
	return e.print(c.JSON, out)
}
