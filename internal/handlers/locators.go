package handlers

import (
	"context"

	"github.com/axbus/axbus/model"
	"github.com/axbus/axbus/waiters/condition"
)

// addLocators gives each element of insp the locator that finds it alone in its window, made
// over the snapshot's whole walk (condition.UniqueLocator: the same rule a recording's steps
// follow), so that what the console shows under the pointer is what click accepts.
func (o *Observing) addLocators(ctx context.Context, insp *model.Inspection) error {
	snap, err := o.obs.Store().GetFor(ctx, insp.SnapshotID)
	if err != nil {
		return err
	}
	_, wins, err := o.obs.Windows(ctx, model.AppQuery{PID: insp.App.PID})
	if err != nil {
		return err
	}
	win := model.Window{ID: insp.Window.ID, Title: insp.Window.Title}
	for _, w := range wins {
		if w.ID == insp.Window.ID {
			win = w
		}
	}
	for i := range insp.Elements {
		e := &insp.Elements[i]
		if index, ok := model.ParseElementID(e.ID); ok {
			if l := condition.UniqueLocator(win, snap.Walk.Nodes, index); l != nil {
				e.Locator = l.String()
			}
		}
	}
	return nil
}
