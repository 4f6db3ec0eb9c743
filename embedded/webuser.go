package embedded

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// webKeysDir is where the state dir keeps the web users' seeds (the console's identities).
const webKeysDir = "web"

// WebUser is the web user name of role (the console's identity): made the first time, with its
// nkey seed kept in the state dir (mode 0600), and added as a user that connects over the
// WebSocket listener only. It returns the seed, which only the console's session hands out.
func (s *Server) WebUser(name, role string) (seed []byte, err error) {
	dir := filepath.Join(s.info.StateDir, webKeysDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("web user %s: %w", name, err)
	}
	path := filepath.Join(dir, name+".nk")
	pub, err := loadOrCreateSeed(path)
	if err != nil {
		return nil, err
	}
	want := User{Name: name, Role: role, Nkey: pub, Web: true}
	s.mu.Lock()
	i := slices.IndexFunc(s.users, func(u User) bool { return u.Name == name })
	switch {
	case i >= 0 && !s.users[i].Web:
		err = fmt.Errorf("a user %s exists already and connects over TCP: remove it (axbus creds remove %s) for the console's", name, name)
	case i >= 0 && s.users[i] != want: // its key or role changed: the user follows the kept seed and the role asked
		users := slices.Clone(s.users)
		users[i] = want
		err = s.setUsersLocked(users)
	case i < 0:
		err = s.addUserLocked(want)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("web user %s: %w", name, err)
	}
	return os.ReadFile(path)
}
