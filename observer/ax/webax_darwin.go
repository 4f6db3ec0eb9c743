package ax

import "context"

// SetWebAccessibility switches app pid's web accessibility: the tree Chromium and Electron build
// only when asked. It sets AXManualAccessibility on the app element, and AXEnhancedUserInterface
// when that does not take (older Chromium; it animates window moves and costs the app memory, so
// it is only the fallback). It reports whether either was on before; switching off clears both.
func (b *Backend) SetWebAccessibility(ctx context.Context, pid int, on bool) (was bool, err error) {
	if err := b.checkOpen(); err != nil {
		return false, err
	}
	if ctx.Err() != nil {
		return false, errEnded(ctx, "switching web accessibility")
	}
	app, err := b.appRef(pid)
	if err != nil {
		return false, err
	}
	ax, _, err := b.refs.acquire(app)
	if err != nil {
		return false, err
	}
	defer release(ax)
	manual := b.boolAttr(ax, "AXManualAccessibility")
	enhanced := b.boolAttr(ax, "AXEnhancedUserInterface")
	was = manual || enhanced
	// Older Electron answers an error although it switched: the value read back decides.
	setBool(ax, "AXManualAccessibility", on)
	if b.boolAttr(ax, "AXManualAccessibility") == on {
		if !on && enhanced {
			return was, b.callErr(setBool(ax, "AXEnhancedUserInterface", false), pid, app, "clearing AXEnhancedUserInterface of pid %d", pid)
		}
		return was, nil
	}
	return was, b.callErr(setBool(ax, "AXEnhancedUserInterface", on), pid, app, "setting AXEnhancedUserInterface of pid %d", pid)
}

// boolAttr reads a boolean attribute; false when it is absent.
func (b *Backend) boolAttr(ax uintptr, attr string) bool {
	v, code := b.refs.copyValue(ax, attr)
	on, _ := boolOf(v)
	return code == AXSuccess && on
}

func setBool(ax uintptr, attr string, on bool) AXError {
	return axUIElementSetAttributeValue(ax, name(attr), booleanRef(on))
}
