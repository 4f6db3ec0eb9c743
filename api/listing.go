package api

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/axbus/axbus/model"
)

// Listing is the snapshot a wait's reply carries. The daemon makes it from the inspection it
// took; a client keeps it as it came off the wire and decodes it on first use, so that the
// outcome and the match, a few hundred bytes, are read without the listing, most of the reply.
type Listing struct {
	once sync.Once
	insp *model.Inspection
	raw  []byte
	err  error
}

// NewListing is the listing of insp.
func NewListing(insp *model.Inspection) *Listing { return &Listing{insp: insp} }

// Inspection is the listing decoded; a reply that could not be decoded gives an INTERNAL error.
func (l *Listing) Inspection() (*model.Inspection, error) {
	l.once.Do(func() {
		if l.insp != nil || l.raw == nil {
			return
		}
		var insp model.Inspection
		if err := json.Unmarshal(l.raw, &insp); err != nil {
			l.err = model.Errorf(model.CodeInternal, "The daemon and this client disagree on the API; use the same axbus version.",
				"snapshot listing not understood: %v", err)
			return
		}
		l.insp = &insp
	})
	return l.insp, l.err
}

// MarshalJSON writes the listing: the bytes it came as, or the inspection.
func (l *Listing) MarshalJSON() ([]byte, error) { return l.AppendJSON(nil) }

// UnmarshalJSON keeps the listing as it is, to be decoded on first use.
func (l *Listing) UnmarshalJSON(data []byte) error {
	l.raw = bytes.Clone(data)
	return nil
}

// RawListing is a listing of encoded bytes, decoded on first use; it keeps b.
func RawListing(b []byte) *Listing { return &Listing{raw: b} }

// AppendJSON appends the listing's JSON to b.
func (l *Listing) AppendJSON(b []byte) ([]byte, error) {
	switch {
	case l.raw != nil:
		return append(b, l.raw...), nil
	case l.insp == nil:
		return append(b, "null"...), nil
	}
	return l.insp.AppendJSON(b)
}
