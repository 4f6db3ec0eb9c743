// Package console is the web console: a page for the people who watch agents work, served on
// loopback from the binary itself (its assets embedded: no CDN, nothing fetched at run time).
// The page is a NATS client like any other: it connects to the daemon's embedded server over
// the server's WebSocket listener as an identity of its own (the monitor role unless an acting
// console was asked for), and sees and does only what the server lets that identity.
//
// A page is opened by a URL carrying a one-time token (URL, printed by `axbus serve` and
// `axbus console`); the token becomes a session cookie, and the session gives the page its
// WebSocket URL and its identity's key. Without a session nothing is served.
//
//	c, err := console.Start(console.Config{Listen: "127.0.0.1:0", Identity: ident, WebSocket: wsURL})
//	url, err := c.URL(api.RoleMonitor)
package console
