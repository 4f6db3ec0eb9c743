package api

// ConsoleRequest asks for a one-time URL of the web console; Role is the page's identity's:
// monitor (the default) or agent, an acting console.
type ConsoleRequest struct {
	Role string `json:"role,omitempty"`
}

// ConsoleReply is the URL: a page on loopback, its token good once and for 10 minutes.
type ConsoleReply struct {
	URL string `json:"url"`
}
