package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/client"
)

// hostApps are one host's apps, or why it did not say.
type hostApps struct {
	Host  string       `json:"host"`
	Apps  []model.App  `json:"apps"`
	Error *model.Error `json:"error,omitempty"`
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
	ctx, cancel := c.replyContext(e.ctx)
	defer cancel()
	clients, closeConn, err := c.fleet(ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	out := &fleetApps{Hosts: make([]hostApps, len(clients))}
	done := make(chan struct{}, len(clients))
	for i, hc := range clients {
		out.Hosts[i].Host = hc.Host()
		go func() {
			defer func() { done <- struct{}{} }()
			apps, err := hc.Apps(ctx)
			out.Hosts[i].Apps = apps
			if err != nil {
				out.Hosts[i].Error = model.AsError(err)
			}
		}()
	}
	for range clients {
		<-done
	}
	return e.print(c.JSON, out)
}

// fleet is a client of each host the connection reaches (--host '*'), by host id, over one
// connection; closeConn closes it.
func (f connFlags) fleet(ctx context.Context) (clients []*client.Client, closeConn func(), err error) {
	f.Host = ""
	cl, closeConn, err := f.dial(ctx)
	if err != nil {
		return nil, nil, err
	}
	hosts, err := client.Hosts(ctx, cl.Conn(), 500*time.Millisecond)
	if err == nil && len(hosts) == 0 {
		err = model.Errorf(model.CodeUnavailable, "Check that the daemons run and have joined the hub (axbus hosts).", "no host answered")
	}
	for _, h := range hosts {
		if err != nil {
			break
		}
		var hc *client.Client
		hc, err = client.New(ctx, cl.Conn(), client.WithHost(h.Host), client.WithPrefix(f.Prefix))
		clients = append(clients, hc)
	}
	if err != nil {
		closeConn()
		return nil, nil, err
	}
	return clients, closeConn, nil
}
