// Package screen makes screenshots and reads text from them: the pixels of a window, a region
// or the display through the backend's observer.ScreenReader, every secure field painted over
// before anything is encoded, scaled down by area means to the request's side and PNG size;
// and text recognised in them by an observer.TextRecognizer (observer/ocr) within its limits,
// its lines in reading order.
//
//	shot, err := screen.Screenshot(ctx, obs, screen.Request{App: model.AppQuery{Name: "Notes"}})
//	rt := screen.Recognize(ctx, recognizer, shot.PNG, shot.Width, shot.Height)
//
// It imports observer and the standard library only.
package screen
