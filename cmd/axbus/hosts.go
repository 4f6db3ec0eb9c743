package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/axbus/axbus/client"
)

type hostsCmd struct {
	Wait time.Duration `default:"500ms" help:"how long to listen for the hosts' answers."`
	connFlags
}

// hostList is the hosts that answered, for print.
type hostList struct {
	Hosts []client.Host `json:"hosts"`
}

func (h *hostList) human(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tBACKEND\tVERSION\tAPI")
	for _, x := range h.Hosts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", x.Host, x.Backend, x.Version, x.Subjects)
	}
	return tw.Flush()
}

func (c *hostsCmd) Run(e *env) error {
	cl, closeConn, err := c.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	hosts, err := client.Hosts(e.ctx, cl.Conn(), c.Wait)
	if err != nil {
		return err
	}
	return e.print(c.JSON, &hostList{Hosts: hosts})
}
