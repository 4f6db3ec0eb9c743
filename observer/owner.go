package observer

import (
	"context"

	"github.com/axbus/axbus/model"
)

// ownerName is the name a snapshot made for ctx's requester is kept under: "" for the daemon's
// own (a wait's listing, claimed by the identity the wait answers: Store.Claim).
func ownerName(ctx context.Context) string {
	o, _ := model.OwnerOf(ctx)
	return o.Name
}
