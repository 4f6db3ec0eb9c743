package embedded

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/nats-io/nkeys"
)

// OwnerName is the user of the state dir's client credentials: the desktop's owner.
const OwnerName = "owner"

const usersFileName = "users.json"

// Users lists the client users: the owner first, then the added ones by name.
func (s *Server) Users() []User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allUsersLocked()
}

func (s *Server) allUsersLocked() []User {
	if s.access == nil {
		return nil
	}
	all := append([]User{s.owner}, s.users...)
	if s.hub != nil {
		all = append(all, *s.hub)
	}
	return all
}

// UserOfAccount is the user whose account is acc (the acc of a Nats-Request-Info header).
func (s *Server) UserOfAccount(acc string) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.allUsersLocked() {
		if u.Name == acc {
			return u, true
		}
	}
	return User{}, false
}

// AddUser adds a client user and lets it connect at once.
func (s *Server) AddUser(u User) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addUserLocked(u)
}

func (s *Server) addUserLocked(u User) error {
	if s.access == nil {
		return errors.New("this server has no per-user access")
	}
	if err := CheckUserName(u.Name); err != nil {
		return err
	}
	if _, ok := s.access.roles[u.Role]; !ok {
		return fmt.Errorf("unknown role %q: the roles are %v", u.Role, sortedKeys(s.access.roles))
	}
	if !nkeys.IsValidPublicUserKey(u.Nkey) {
		return fmt.Errorf("%q is not an nkey user public key", u.Nkey)
	}
	for _, o := range s.allUsersLocked() {
		if o.Name == u.Name || o.Nkey == u.Nkey {
			return fmt.Errorf("a user %s exists already (same name or key)", o.Name)
		}
	}
	return s.setUsersLocked(append(slices.Clone(s.users), u))
}

// RemoveUser removes a client user: its connections are closed at once.
func (s *Server) RemoveUser(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == OwnerName {
		return errors.New("the owner's credentials stay: remove the state dir's client.nk to make new ones")
	}
	i := slices.IndexFunc(s.users, func(u User) bool { return u.Name == name })
	if i < 0 {
		return fmt.Errorf("no user %q", name)
	}
	return s.setUsersLocked(slices.Delete(slices.Clone(s.users), i, i+1))
}

// setUsersLocked writes users.json and reloads the server's accounts with users.
func (s *Server) setUsersLocked(users []User) error {
	slices.SortFunc(users, func(a, b User) int { return compareStrings(a.Name, b.Name) })
	data, err := json.MarshalIndent(users, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(s.info.StateDir, usersFileName), data, privateFileMod); err != nil {
		return fmt.Errorf("users: %w", err)
	}
	// Twice: nats-server (2.15) gives an account that a reload adds no subscriptions for its
	// service imports (configureAccounts skips them while reloading); the next reload, seeing
	// the account exist, makes them.
	if err := s.reloadLocked(users, 2); err != nil {
		return err
	}
	s.users = users
	return nil
}

// reloadLocked reloads the server's accounts with users, times times.
func (s *Server) reloadLocked(users []User, times int) error {
	for range times {
		opts, err := serverOptions(s.cfg, s.host, s.port, s.info.StateDir, s.owner, users, s.daemonPub, s.stls)
		if err != nil {
			return err
		}
		if err := s.ns.ReloadOptions(opts); err != nil {
			return fmt.Errorf("reload accounts: %w", err)
		}
	}
	return nil
}

// SetPrivate makes each subject of private publishable only by its owner (a user's name) and
// the roles whose grant has AllPrivate, in place of the subjects set before: the server refuses
// everyone else's publish there, connections already open included.
func (s *Server) SetPrivate(private map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.access == nil {
		return errors.New("this server has no per-user access")
	}
	s.access.private = maps.Clone(private)
	return s.reloadLocked(s.users, 1)
}

// loadUsers reads the state dir's users.json; none is no users.
func loadUsers(dir string) ([]User, error) {
	data, err := os.ReadFile(filepath.Join(dir, usersFileName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("users: %w", err)
	}
	var users []User
	if err := json.Unmarshal(data, &users); err != nil {
		return nil, fmt.Errorf("users: %s is not JSON: %w", filepath.Join(dir, usersFileName), err)
	}
	return users, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
