package main

import (
	"context"
	"encoding/json"
	"io"
	"os"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

type recordCmd struct {
	Op        string `arg:"" enum:"start,stop" help:"start (prints the recording's id) or stop (prints its flow)."`
	Recording string `arg:"" optional:"" help:"stop: the id start printed."`
	Agent     string `help:"start: record this identity's actions (an admin's choice; an agent records its own)."`
	Name      string `help:"start: the flow's name."`
	Person    bool   `help:"start: also what a person does with the mouse and keyboard (admins)."`
	connFlags
}

func (c *recordCmd) Run(e *env) error {
	if c.Op == "stop" && c.Recording == "" {
		return model.Errorf(model.CodeBadRequest, "Give the id record start printed: axbus record stop r_....", "record stop needs the recording")
	}
	req := api.RecordRequest{Op: c.Op, Agent: c.Agent, Name: c.Name, Recording: c.Recording, Person: c.Person}
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		r, err := cl.Record(ctx, req)
		if err != nil || r.Flow == nil {
			return r, err
		}
		return r.Flow, nil // stop: the flow alone, ready to save and replay
	})
}

type replayCmd struct {
	Flow string            `arg:"" help:"The flow (JSON, as record stop prints it); - reads standard input."`
	Var  map[string]string `help:"A parameter's value (NAME=VALUE), for each parameter of the flow (written $${NAME} in it)." placeholder:"NAME=VALUE"`
	connFlags
}

func (c *replayCmd) Run(e *env) error {
	var in io.Reader = os.Stdin
	if c.Flow != "-" {
		f, err := os.Open(c.Flow)
		if err != nil {
			return model.Errorf(model.CodeBadRequest, "Give the path of a flow file (axbus record stop ... > flow.json).", "%v", err)
		}
		defer f.Close()
		in = f
	}
	var flow api.Flow
	dec := json.NewDecoder(io.LimitReader(in, api.MaxRequest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&flow); err != nil {
		return model.Errorf(model.CodeBadRequest, "Give a flow as axbus schema flow describes it.", "the flow: %v", err)
	}
	client, closeConn, err := c.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := awaitOutcome(e.ctx, api.MaxReplay)
	defer cancel()
	r, err := client.Replay(ctx, api.ReplayRequest{Flow: flow, Vars: c.Var})
	if err != nil {
		return err
	}
	if err := e.print(c.JSON, r); err != nil {
		return err
	}
	if f := r.Failure; f != nil {
		return quiet(model.Errorf(f.Error.Code, f.Error.Suggestion, "step %d (%s %s) failed: %s", f.Step, f.Action, f.Locator, f.Error.Message))
	}
	return nil
}
