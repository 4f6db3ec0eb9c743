package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

type windowCmd struct {
	Op string `arg:"" enum:"move,resize,close,raise,minimize" help:"move (--to X,Y), resize (--size WxH), close (as its close button does), raise (to the front, with the focus) or minimize."`
	appFlags
	Window string `placeholder:"W" help:"window id or title (default: the focused window)." group:"Target"`
	To     string `placeholder:"X,Y" help:"move: where the window's top-left corner goes, in global coordinates."`
	Size   string `placeholder:"WxH" help:"resize: the window's new width and height."`
	connFlags
}

func (c *windowCmd) Run(e *env) error {
	req := api.WindowRequest{AppTarget: c.target(), Window: c.Window, Op: c.Op}
	var err error
	switch c.Op {
	case "move":
		req.X, req.Y, err = pair(c.To, ",", "--to X,Y, e.g. --to 100,50")
	case "resize":
		req.W, req.H, err = pair(c.Size, "x", "--size WxH, e.g. --size 640x480")
	}
	if err != nil {
		return err
	}
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Window(ctx, req)
	})
}

// pair reads two numbers separated by sep.
func pair(s, sep, want string) (*float64, *float64, error) {
	a, b, ok := strings.Cut(s, sep)
	x, errX := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, errY := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || errX != nil || errY != nil {
		return nil, nil, model.Errorf(model.CodeBadRequest, "Give "+want+".", "%q is not two numbers", s)
	}
	return &x, &y, nil
}
