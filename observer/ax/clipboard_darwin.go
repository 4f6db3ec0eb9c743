package ax

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/ebitengine/purego/objc"
)

// The clipboard is NSPasteboard's general pasteboard, text only: its string of type
// public.utf8-plain-text (NSPasteboardTypeString), which AppKit also converts other plain-text
// types to. NSPasteboard copies what it is given and keeps it after this process exits, so
// nothing is owned here as on X11.

// pasteSettle is how long after taken is called its channel is closed. macOS tells no one when
// an app reads the pasteboard (a lazy NSPasteboardItemDataProvider would be told, but needs an
// Objective-C class with callbacks and a main run loop), so this stands for "a paste had time to
// take the text": a paste reads the pasteboard within a few milliseconds of its key, and 300 ms
// leaves a busy app room before the caller puts the old content back.
const pasteSettle = 300 * time.Millisecond

// textType is NSPasteboardTypeString's value.
const textType = "public.utf8-plain-text"

// nsUTF8Encoding is NSUTF8StringEncoding.
const nsUTF8Encoding = 4

// clipNames are the class and selectors of the pasteboard, looked up once after load.
var clipNames struct {
	once                                 sync.Once
	pasteboard                           objc.Class
	general, types, count, stringForType objc.SEL
	clear, setString, utf8Length         objc.SEL
}

// pasteboard is the general pasteboard; callers hold a pool. It is 0 outside a GUI session.
func pasteboard() objc.ID {
	clipNames.once.Do(func() {
		n := &clipNames
		n.pasteboard = objc.GetClass("NSPasteboard")
		n.general, n.types = objc.RegisterName("generalPasteboard"), objc.RegisterName("types")
		n.count, n.stringForType = objc.RegisterName("count"), objc.RegisterName("stringForType:")
		n.clear, n.setString = objc.RegisterName("clearContents"), objc.RegisterName("setString:forType:")
		n.utf8Length = objc.RegisterName("lengthOfBytesUsingEncoding:")
	})
	if clipNames.pasteboard == 0 {
		return 0
	}
	return objc.ID(clipNames.pasteboard).Send(clipNames.general)
}

// ReadClipboard returns the pasteboard's text; has is false when it holds nothing. Content
// without a plain-text form (an image, files) is NOT_SUPPORTED, and so is text longer than
// model.MaxClipboardText, which is never copied out.
func (b *Backend) ReadClipboard(ctx context.Context) (text string, has bool, err error) {
	if err := b.checkOpen(); err != nil {
		return "", false, err
	}
	if ctx.Err() != nil {
		return "", false, errEnded(ctx, "reading the clipboard")
	}
	withPool(func() {
		n := &clipNames
		pb := pasteboard()
		if pb == 0 {
			err = errNoPasteboard()
			return
		}
		types := pb.Send(n.types)
		if types == 0 || objc.Send[uint64](types, n.count) == 0 {
			return // empty
		}
		s := pb.Send(n.stringForType, name(textType))
		if s == 0 {
			err = model.Errorf(model.CodeNotSupported, "The clipboard holds something other than text (an image, files); axbus reads and writes text only.",
				"the clipboard holds no text")
			return
		}
		if size := objc.Send[uint64](s, n.utf8Length, uint64(nsUTF8Encoding)); size > model.MaxClipboardText {
			err = model.Errorf(model.CodeNotSupported, "Copy at most 200 KiB of text.",
				"the clipboard holds more than %d bytes of text", model.MaxClipboardText)
			return
		}
		text, has = goString(uintptr(s)), true // an NSString is a CFString (toll-free bridged)
	})
	return text, has, err
}

// WriteClipboard makes text the pasteboard's content (-clearContents, then -setString:forType:),
// or, without has, empties it. taken's channel is closed pasteSettle after taken is called.
func (b *Backend) WriteClipboard(ctx context.Context, text string, has bool) (func() <-chan struct{}, error) {
	if err := model.CheckClipboardText(text); err != nil {
		return nil, err
	}
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, errEnded(ctx, "writing the clipboard")
	}
	var err error
	withPool(func() {
		n := &clipNames
		pb := pasteboard()
		if pb == 0 {
			err = errNoPasteboard()
			return
		}
		objc.Send[int64](pb, n.clear) // answers the new change count
		if !has {
			return
		}
		s := createString(text)
		defer release(s)
		if s == 0 || !objc.Send[bool](pb, n.setString, s, name(textType)) {
			err = model.Errorf(model.CodeActionFailed, "Retry: another app may have taken the clipboard at the same moment.",
				"the clipboard did not take the text")
		}
	})
	if err != nil {
		return nil, err
	}
	return func() <-chan struct{} {
		done := make(chan struct{})
		if !has {
			close(done)
			return done
		}
		time.AfterFunc(pasteSettle, func() { close(done) })
		return done
	}, nil
}

func errNoPasteboard() *model.Error {
	return model.Errorf(model.CodeUnavailable, "Run axbus in the logged-in user's GUI session (not over ssh or as a daemon of another user).",
		"AppKit has no general pasteboard")
}
