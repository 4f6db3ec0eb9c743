package api

import (
	"time"

	"github.com/axbus/axbus/model"
)

// An action's disposition: what its app was seen to do in response (ActionReply.Disposition).
const (
	// EffectConfirmed: the target or its window changed, or a window opened or closed.
	EffectConfirmed = "confirmed"
	// EffectNoneSeen: nothing changed within the settle window (EffectSettle), or, with an
	// expect, by the time it ended.
	EffectNoneSeen = "no_effect_seen"
	// EffectUnverifiable: nothing seen says nothing here: a secure field's changes are never
	// told, not even that they happened.
	EffectUnverifiable = "unverifiable"
)

// The settle window: an action without an expect watches its app for EffectSettle at most, and
// ends EffectQuiet after the last change that confirmed it; an action with an expect adds
// nothing to it (its effects are what came before the expect ended).
const (
	EffectSettle = 500 * time.Millisecond
	EffectQuiet  = 100 * time.Millisecond
	// MaxEffects bounds the effects a reply lists; Effect.Count folds repeats.
	MaxEffects = 8
)

// Effect is one kind of change that followed an action on its app: an event type on an element
// (repeats folded into Count), not counting what changed before the action too (a clock) or
// what any input does on its way (focus moving, a button's pressed flicker).
type Effect struct {
	Type   model.EventType `json:"type"`
	Role   model.Role      `json:"role,omitempty"`
	Name   string          `json:"name,omitempty"`
	Window string          `json:"window,omitempty"` // its window's title
	Count  int             `json:"count,omitempty"`  // more than one such event
}
