package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

type screenshotCmd struct {
	appFlags
	Window   string `placeholder:"W" help:"window id or title (default: the focused window)." group:"Target"`
	Region   string `placeholder:"X,Y,W,H" help:"an area of the display, in global coordinates (instead of an app's window)." group:"Target"`
	Output   string `short:"o" default:"screenshot.png" placeholder:"FILE" type:"path" help:"where to write the PNG."`
	MaxSide  int    `placeholder:"PX" help:"longest side of the image (default 1920)."`
	Full     bool   `help:"full size: no limit on the longest side (max_side -1)."`
	MaxBytes int    `placeholder:"BYTES" help:"largest PNG (default 2 MiB)."`
	OCR      bool   `name:"ocr" help:"also recognise the image's text (from pixels)."`
	connFlags
}

// screenshotResult is the reply and where its PNG went.
type screenshotResult struct {
	*api.ScreenshotReply
	File string `json:"file"`
}

func (c *screenshotCmd) Run(e *env) error {
	req := api.ScreenshotRequest{AppTarget: c.target(), Window: c.Window, MaxSide: c.MaxSide, MaxBytes: c.MaxBytes, OCR: c.OCR}
	if c.Full {
		req.MaxSide = -1
	}
	if c.Region != "" {
		r, err := parseRegion(c.Region)
		if err != nil {
			return err
		}
		req.Region = &r
	}
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		reply, png, err := cl.Screenshot(ctx, req)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(c.Output, png, 0o600); err != nil {
			return nil, model.Errorf(model.CodeBadRequest, "Give -o a file in a directory you may write to.", "%v", err)
		}
		return screenshotResult{ScreenshotReply: reply, File: c.Output}, nil
	})
}

// parseRegion reads X,Y,W,H.
func parseRegion(s string) (model.Rect, error) {
	f := strings.Split(s, ",")
	var v [4]float64
	for i := range v {
		var err error
		if len(f) != 4 {
			break
		}
		if v[i], err = strconv.ParseFloat(strings.TrimSpace(f[i]), 64); err != nil {
			break
		}
		if i == 3 && v[2] > 0 && v[3] > 0 {
			return model.Rect{X: v[0], Y: v[1], W: v[2], H: v[3]}, nil
		}
	}
	return model.Rect{}, model.Errorf(model.CodeBadRequest, "Give --region X,Y,W,H, e.g. 0,0,800,600.",
		"region %q is not four numbers with a positive width and height", s)
}

// human is the file and its size, then the recognised lines, one a line.
func (r screenshotResult) human(w io.Writer) error {
	fmt.Fprintf(w, "%s: %dx%d PNG, %d bytes, scale %.3g, of %gx%g at (%g, %g); %d secure fields blanked\n",
		r.File, r.Width, r.Height, r.Bytes, r.Scale, r.Bounds.W, r.Bounds.H, r.Bounds.X, r.Bounds.Y, r.Blanked)
	if rt := r.RecognizedText; rt != nil {
		if rt.Error != nil {
			fmt.Fprintf(w, "ocr: %s: %s\n", rt.Error.Code, rt.Error.Message)
		}
		for _, l := range rt.Lines {
			fmt.Fprintf(w, "  %-40s %3.0f%%  at %.2f,%.2f\n", strconv.Quote(l.Text), l.Confidence*100, l.Box.X, l.Box.Y)
		}
	}
	return nil
}
