package ax

import (
	"testing"

	"github.com/axbus/axbus/model"
)

func TestDisplayUnion(t *testing.T) {
	main := model.Rect{W: 1512, H: 982}
	for _, c := range []struct {
		name     string
		displays []model.Rect
		want     model.Rect
	}{
		{"none", nil, model.Rect{}},
		{"the main display", []model.Rect{main}, main},
		{"one to the right", []model.Rect{main, {X: 1512, Y: -200, W: 1920, H: 1080}},
			model.Rect{X: 0, Y: -200, W: 3432, H: 1182}},
		{"one to the left, below", []model.Rect{main, {X: -1280, Y: 500, W: 1280, H: 1024}},
			model.Rect{X: -1280, Y: 0, W: 2792, H: 1524}},
		{"an empty one is left out", []model.Rect{{X: -5000, Y: -5000}, main}, main},
	} {
		if got := DisplayUnion(c.displays); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestCaptureSizeIsInWholePoints(t *testing.T) {
	if w, h := CaptureSize(model.Rect{X: 10.5, Y: 3, W: 800, H: 599.6}); w != 800 || h != 600 {
		t.Errorf("%dx%d, want 800x600", w, h)
	}
}
