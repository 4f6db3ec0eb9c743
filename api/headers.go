package api

// The NATS headers of the API. A request or reply means the same without them; they let a
// client skip work or hear more.
const (
	// HeaderInterim asks an endpoint for interim replies before the final one (a wait says
	// "armed" once it listens); the interim replies carry it too.
	HeaderInterim = "Axbus-Interim"
	// HeaderListing says where a wait reply's listing lies in its body ("offset,length"): a
	// client then decodes the outcome and the match without scanning the listing, and keeps
	// the listing's bytes for later.
	HeaderListing = "Axbus-Listing"
	// HeaderCode carries an error reply's stable code next to micro's numeric status.
	HeaderCode = "Axbus-Error-Code"
)
