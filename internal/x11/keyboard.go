package x11

import (
	"time"

	"github.com/axbus/axbus/model"

	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// keysymShiftL is Shift_L (X11/keysymdef.h), held for a keysym at the shift level.
const keysymShiftL = 0xffe1

// restoreDelay is how long keycodes bound for typing stay bound after the last key: the app
// translates a key when it reads it, after the keymap change, so restoring at once could turn
// late keys into nothing.
const restoreDelay = 500 * time.Millisecond

// keyboard is the X keyboard map as typing needs it: where each keysym is, and which keycodes are
// free to bind keysyms the map lacks.
type keyboard struct {
	perCode int
	min     xproto.Keycode
	syms    []xproto.Keysym // perCode per keycode from min
	spare   []xproto.Keycode
	bound   map[uint32]xproto.Keycode // keysyms bound to spare keycodes
	timer   *time.Timer
	gen     int
}

// keyboardLocked reads the keyboard map on first use. Callers hold x.mu.
func (x *Conn) keyboardLocked() (*keyboard, error) {
	if x.keys != nil {
		if x.keys.timer != nil {
			x.keys.timer.Stop()
		}
		return x.keys, nil
	}
	count := int(x.maxKey) - int(x.minKey) + 1
	r, err := xproto.GetKeyboardMapping(x.c, x.minKey, byte(count)).Reply()
	if err != nil {
		return nil, err
	}
	kb := &keyboard{perCode: int(r.KeysymsPerKeycode), min: x.minKey, syms: r.Keysyms, bound: map[uint32]xproto.Keycode{}}
	for i := 0; i < count; i++ {
		empty := true
		for j := 0; j < kb.perCode; j++ {
			if kb.syms[i*kb.perCode+j] != 0 {
				empty = false
			}
		}
		if empty {
			kb.spare = append(kb.spare, x.minKey+xproto.Keycode(i))
		}
	}
	x.keys = kb
	return kb, nil
}

// find returns the keycode and shift level (0 or 1) that produce sym.
func (kb *keyboard) find(sym uint32) (xproto.Keycode, int, bool) {
	if code, ok := kb.bound[sym]; ok {
		return code, 0, true
	}
	n := len(kb.syms) / max(kb.perCode, 1)
	for level := 0; level < 2 && level < kb.perCode; level++ {
		for i := 0; i < n; i++ {
			if uint32(kb.syms[i*kb.perCode+level]) == sym {
				return kb.min + xproto.Keycode(i), level, true
			}
		}
	}
	return 0, 0, false
}

// bind binds every keysym of syms that the map lacks to a spare keycode (at every level, so
// that shift does not matter), in one ChangeKeyboardMapping per keycode. Callers hold x.mu.
func (kb *keyboard) bind(x *Conn, syms []uint32) error {
	var need []uint32
	seen := map[uint32]bool{}
	for _, s := range syms {
		if _, _, ok := kb.find(s); !ok && !seen[s] {
			seen[s] = true
			need = append(need, s)
		}
	}
	if len(need) == 0 {
		return nil
	}
	free := kb.freeCodes()
	if len(need) > len(free) {
		// Recycle the codes bound for earlier input.
		kb.restore(x)
		free = kb.freeCodes()
	}
	if len(need) > len(free) {
		return model.Errorf(model.CodeNotSupported, "Type the text in smaller pieces.",
			"the text needs %d characters missing from the keyboard map, and only %d keycodes are free to bind them", len(need), len(free))
	}
	for i, s := range need {
		code := free[i]
		list := make([]xproto.Keysym, kb.perCode)
		for j := range list {
			list[j] = xproto.Keysym(s)
		}
		if err := xproto.ChangeKeyboardMappingChecked(x.c, 1, code, byte(kb.perCode), list).Check(); err != nil {
			return inputFailed("binding a keycode", err)
		}
		kb.bound[s] = code
	}
	x.sync()
	return nil
}

// freeCodes lists the spare keycodes not bound now.
func (kb *keyboard) freeCodes() []xproto.Keycode {
	used := map[xproto.Keycode]bool{}
	for _, c := range kb.bound {
		used[c] = true
	}
	var out []xproto.Keycode
	for _, c := range kb.spare {
		if !used[c] {
			out = append(out, c)
		}
	}
	return out
}

// tap presses and releases sym with mods held (and shift when sym sits at the shift level).
// Callers hold x.mu.
func (kb *keyboard) tap(x *Conn, sym uint32, mods []uint32) error {
	code, level, ok := kb.find(sym)
	if !ok {
		return model.Errorf(model.CodeNotSupported, "Use keys of the keyboard map.", "keysym 0x%x cannot be typed", sym)
	}
	var held []xproto.Keycode
	hasShift := false
	for _, m := range mods {
		mc, _, ok := kb.find(m)
		if !ok {
			return model.Errorf(model.CodeNotSupported, "Use shift, ctrl, alt or super.", "modifier keysym 0x%x is not on the keyboard", m)
		}
		if m == keysymShiftL {
			hasShift = true
		}
		held = append(held, mc)
	}
	if level == 1 && !hasShift {
		if sc, _, ok := kb.find(keysymShiftL); ok {
			held = append(held, sc)
		}
	}
	for _, h := range held {
		if err := xtest.FakeInputChecked(x.c, xproto.KeyPress, byte(h), 0, x.root, 0, 0, 0).Check(); err != nil {
			return inputFailed("pressing a modifier", err)
		}
	}
	err := xtest.FakeInputChecked(x.c, xproto.KeyPress, byte(code), 0, x.root, 0, 0, 0).Check()
	if err == nil {
		err = xtest.FakeInputChecked(x.c, xproto.KeyRelease, byte(code), 0, x.root, 0, 0, 0).Check()
	}
	for i := len(held) - 1; i >= 0; i-- {
		if e := xtest.FakeInputChecked(x.c, xproto.KeyRelease, byte(held[i]), 0, x.root, 0, 0, 0).Check(); e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		return inputFailed("pressing a key", err)
	}
	return nil
}

// scheduleRestore unbinds the keycodes bound for typing after restoreDelay. Callers hold x.mu.
func (kb *keyboard) scheduleRestore(x *Conn) {
	if len(kb.bound) == 0 {
		return
	}
	kb.gen++
	gen := kb.gen
	kb.timer = time.AfterFunc(restoreDelay, func() {
		x.mu.Lock()
		defer x.mu.Unlock()
		if x.keys == kb && kb.gen == gen {
			kb.restore(x)
		}
	})
}

// restore gives the bound keycodes back their (empty) mapping. Callers hold x.mu.
func (kb *keyboard) restore(x *Conn) {
	if kb.timer != nil {
		kb.timer.Stop()
	}
	for s, code := range kb.bound {
		list := make([]xproto.Keysym, kb.perCode)
		xproto.ChangeKeyboardMapping(x.c, 1, code, byte(kb.perCode), list)
		delete(kb.bound, s)
	}
	x.sync()
}
