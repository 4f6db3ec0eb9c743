package client_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
)

// A client waits for a button, then clicks it and proves the click by what it caused: no polling,
// and no trusting the click's own "done". Here the daemon runs on the simulated desktop; a
// program reaches a running one with embedded.Connect (its state dir) or nats.Connect and
// credentials.
func Example() {
	dir, _ := os.MkdirTemp("", "axbus-example")
	defer os.RemoveAll(dir)
	d, err := daemon.Start(daemon.Config{Backend: "sim", Desktop: "demo", StateDir: dir, Listen: "127.0.0.1:0", Host: "desk"})
	if err != nil {
		panic(err)
	}
	defer d.Close(context.Background())

	nc, _, err := embedded.Connect(dir) // as the desktop's owner
	if err != nil {
		panic(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, err := client.New(ctx, nc)
	if err != nil {
		panic(err)
	}

	notes := api.AppTarget{App: "Notes"}
	res, err := client.Wait(ctx, api.WaitRequest{Expr: "element:role=button,name=Save", AppTarget: notes, TimeoutMS: 5000})
	if err != nil {
		panic(err)
	}
	fmt.Println("wait:", res.Outcome)

	reply, err := client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Save", AppTarget: notes,
		Expect: &api.WaitRequest{Expr: `text:"Saved"`, TimeoutMS: 5000}})
	if err != nil {
		panic(err)
	}
	fmt.Println("click:", reply.Done, "expect:", reply.Expect.Outcome)
	// Output:
	// wait: met
	// click: true expect: met
}
