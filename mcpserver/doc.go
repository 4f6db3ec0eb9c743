// Package mcpserver owns `axbus mcp`: a Model Context Protocol server that is a thin client of
// the bus. Each tool is one request to one endpoint of the daemon, sent on the connection (and
// so with the identity and role) the server was given: what an agent does through MCP is the
// same request, the same events and the same audit record as through NATS, and the daemon, not
// this server, checks the arguments (against the endpoint's schema) and the rights.
package mcpserver
