package api

import (
	"time"

	"github.com/axbus/axbus/model"
)

// ScreenshotRequest asks for a PNG of an app's window (app or pid, and window), of a region of
// the display (region, global coordinates), or of the whole display (neither).
type ScreenshotRequest struct {
	AppTarget
	Window string      `json:"window,omitempty"`
	Region *model.Rect `json:"region,omitempty"`
	// MaxSide bounds the image's longest side (default 1920; -1: full size); MaxBytes the PNG's
	// size (default 2 MiB, at most 64 MiB): past them the image is scaled down.
	MaxSide  int `json:"max_side,omitempty"`
	MaxBytes int `json:"max_bytes,omitempty"`
	// OCR adds the text recognised in the image (recognized_text).
	OCR bool `json:"ocr,omitempty"`
}

// ScreenshotReply describes the PNG, which the requester then fetches in Parts parts of at
// most ShotPartSize bytes (a NATS message is at most 1 MiB), one screenshot_part request each:
// concatenated they are Bytes bytes whose SHA-256 is SHA256. The daemon keeps them for
// ShotKept, for the identity that asked alone. A pixel (px, py) of the image is the global
// point (Bounds.X + px/Scale, Bounds.Y + py/Scale).
type ScreenshotReply struct {
	Format string           `json:"format"`
	Width  int              `json:"width"`
	Height int              `json:"height"`
	Scale  float64          `json:"scale"`
	Bounds model.Rect       `json:"bounds"`
	App    *model.AppRef    `json:"app,omitempty"`
	Window *model.WindowRef `json:"window,omitempty"`
	// Blanked counts the secure fields painted over before the image left the observer.
	Blanked int `json:"blanked"`
	// ID names the screenshot to screenshot_part.
	ID     string `json:"id"`
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
	Parts  int    `json:"parts"`
	// RecognizedText is the image's text recognised from its pixels, when asked (ocr).
	RecognizedText *model.RecognizedText `json:"recognized_text,omitempty"`
}

// ScreenshotPartRequest asks for one part (from 0) of a screenshot's PNG; the reply is the part's
// bytes as they are.
type ScreenshotPartRequest struct {
	ID   string `json:"id"`
	Part int    `json:"part"`
}

// The screenshot transport's limits, each said once.
const (
	// ShotPartSize is the largest part of a screenshot's PNG in one message.
	ShotPartSize = 512 << 10
	// ShotKept is how long the daemon keeps a screenshot's PNG for its parts to be fetched.
	ShotKept = 2 * time.Minute
)
