package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/schemas"
)

// screenshot is the screenshot tool: the PNG, fetched whole (client.Client.Screenshot checks it by
// its hash), as image content; what maps its pixels to the desktop, and any recognised text,
// as text and structured content.
func (s *Server) screenshot(ctx context.Context, c *call) *mcp.CallToolResult {
	var req api.ScreenshotRequest
	if err := schemas.DecodeRequest("screenshot", c.req, &req); err != nil {
		return s.callError(ctx, c.t, err)
	}
	r, png, err := s.client.Screenshot(ctx, req)
	if err != nil {
		return s.callError(ctx, c.t, err)
	}
	raw, _ := json.Marshal(r)
	var b strings.Builder
	fmt.Fprintf(&b, "%dx%d PNG (%d bytes) of %s at scale %g: pixel (px, py) is the desktop point (%g + px/%g, %g + py/%g); %d secure fields painted over.",
		r.Width, r.Height, r.Bytes, shotOf(r), r.Scale, r.Bounds.X, r.Scale, r.Bounds.Y, r.Scale, r.Blanked)
	if rt := r.RecognizedText; rt != nil {
		b.WriteString("\nText recognised from pixels (OCR: may be wrong):")
		if rt.Error != nil {
			fmt.Fprintf(&b, " none (%s: %s)", rt.Error.Code, rt.Error.Message)
		}
		for _, l := range rt.Lines {
			fmt.Fprintf(&b, "\n%q at (%.3f, %.3f) %.3fx%.3f of the image, confidence %.2f", l.Text, l.Box.X, l.Box.Y, l.Box.W, l.Box.H, l.Confidence)
		}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}, &mcp.TextContent{Text: cut(b.String())}},
		StructuredContent: json.RawMessage(raw)}
}

// shotOf says what a screenshot shows.
func shotOf(r *api.ScreenshotReply) string {
	switch {
	case r.Window != nil && r.App != nil:
		return fmt.Sprintf("window %q of %s", r.Window.Title, r.App.Name)
	case r.App != nil:
		return r.App.Name
	}
	return fmt.Sprintf("the region %v", r.Bounds)
}
