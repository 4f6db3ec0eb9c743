// Package text reads the text of a window, or of one element's subtree, as a reader sees it:
// in reading order, visual lines joined, table cells separated by tabs, secure fields and hidden
// elements (observer.HiddenIn) left out, within a byte limit. Read walks the window through an
// observer.Observer and changes nothing on the desktop; Assemble lays out a walk already made.
//
//	res, err := text.Read(ctx, obs, text.Request{App: model.AppQuery{Name: "Notes"}})
//
// It imports observer and the standard library only.
package text
