package main

import (
	"context"
	"fmt"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
)

func init() {
	platformSuites = append(platformSuites, suite{"atspi-screenshot", benchATSPIScreenshot})
}

// benchATSPIScreenshot: a screenshot of the GTK3 fixture's window through the bus (the window
// walked for secure fields, X GetImage, PNG, fetched in parts), then the same with Tesseract's
// OCR of it. Interleaved. The issue sets no target: the figures are reported.
func benchATSPIScreenshot() ([]row, error) {
	dd, stop, err := startDesktopDaemon(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx := context.Background()
	req := api.ScreenshotRequest{AppTarget: api.AppTarget{PID: dd.app.PID}}
	var shots, ocrs []time.Duration
	var size, lines int
	for i := range 30 {
		req.OCR = i%3 == 2
		start := time.Now()
		r, png, err := dd.client.Screenshot(ctx, req)
		took := time.Since(start)
		if err != nil {
			return nil, err
		}
		if !req.OCR {
			shots, size = append(shots, took), len(png)
			continue
		}
		if r.RecognizedText == nil || r.RecognizedText.Error != nil {
			return nil, fmt.Errorf("OCR of the fixture's window: %+v", r.RecognizedText)
		}
		ocrs, lines = append(ocrs, took), len(r.RecognizedText.Lines)
	}
	return []row{
		{"screenshot", "GTK3 fixture window (800x700): screenshot through the bus, p50 / p99", p50p99(shots),
			fmt.Sprintf("no target set; %d shots over TCP, %d-byte PNG, secure fields found by a walk of the window", len(shots), size), "", ""},
		{"screenshot", "the same with ocr (Tesseract 5, eng), p50 / p99", p50p99(ocrs),
			fmt.Sprintf("no target set; %d shots, %d lines recognised, interleaved with the row above", len(ocrs), lines), "", ""},
	}, nil
}
