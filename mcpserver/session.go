package mcpserver

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is what the server keeps of one MCP session: the snapshot of the last listing it
// returned, whose ids an agent may give bare (e12). A listing is what shows ids bare (inspect, a
// wait_for with listing); a match or a target is shown with its snapshot (s_…:e9), so a bare id
// always means the element of the listing the agent read last, never one of a snapshot whose
// listing it has not seen (ids are positions in a walk: e7 of another snapshot is another
// element).
type session struct {
	mu      sync.Mutex
	listing string
}

// sessionOf is ss's state, made on its first call and dropped when it ends.
func (s *Server) sessionOf(ss *mcp.ServerSession) *session {
	if ss == nil {
		return &session{} // no session to remember anything for
	}
	v, loaded := s.sessions.LoadOrStore(ss, &session{})
	if !loaded {
		go func() {
			_ = ss.Wait()
			s.sessions.Delete(ss)
		}()
	}
	return v.(*session)
}

// last is the snapshot of the session's last listing ("" before any).
func (se *session) last() string {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.listing
}

// listed records a listing the session was given.
func (se *session) listed(snapshot string) {
	if snapshot == "" {
		return
	}
	se.mu.Lock()
	se.listing = snapshot
	se.mu.Unlock()
}
