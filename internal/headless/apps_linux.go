//go:build linux

package headless

import (
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/axbus/axbus/fixtures/apps"
)

// matrixPage is the page of fixtures/web the WebKit fixture shows: the matrix fixtures' controls.
const matrixPage = "matrix.html"

// StartApp starts a fixture app of kind (FixtureKinds) in the session and returns once its window is shown
// (it printed READY) and it is in the AT-SPI registry; a matrix fixture (qt5, qt6, swing, webkit) also has a
// showing top-level window there by then. A GTK fixture's control socket listens too. extraEnv (KEY=VALUE) is
// added to its environment, e.g. AXBUS_FIXTURE_SAVE_DELAY_MS=50. When something the kind needs is missing
// the error names the Debian packages to install.
func (s *Session) StartApp(ctx context.Context, kind string, extraEnv ...string) (*App, error) {
	if !slices.Contains(FixtureKinds, kind) {
		return nil, fmt.Errorf("headless: unknown fixture kind %q (one of %s)", kind, strings.Join(FixtureKinds, ", "))
	}
	if err := FixtureAvailable(kind); err != nil {
		return nil, err
	}
	name, err := s.nextName(kind)
	if err != nil {
		return nil, err
	}
	argv, err := s.fixtureArgv(kind)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = s.Env()
	// GTK 4 realises an object's accessible only once a client reads it, and then announces its changes: the
	// GTK fixtures are left unread (their READY comes after their window is mapped) so that tests see a fresh
	// app as a client would.
	l := launch{kind: kind, name: name, what: kind + " fixture", cmd: cmd, ready: true, window: !isGTK(kind),
		bound: startCap}
	if isGTK(kind) {
		l.socket = filepath.Join(s.Dir, name+".sock")
		cmd.Env = append(cmd.Env, "AXBUS_FIXTURE_SOCKET="+l.socket)
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	return s.start(ctx, l)
}

// fixtureArgv is the command line of a fixture kind.
func (s *Session) fixtureArgv(kind string) ([]string, error) {
	dir, err := s.fixtureDir()
	if err != nil {
		return nil, err
	}
	switch kind {
	case KindQt5, KindQt6:
		return []string{Python, filepath.Join(dir, "qt_fixture.py"), strings.TrimPrefix(kind, "qt")}, nil
	case KindWebKit:
		web, err := s.webDir()
		if err != nil {
			return nil, err
		}
		return []string{Python, filepath.Join(dir, "webkit_fixture.py"), filepath.Join(web, matrixPage)}, nil
	case KindSwing:
		java, err := swingJava()
		if err != nil {
			return nil, err
		}
		return append(java, filepath.Join(dir, swingSource)), nil
	}
	return []string{Python, filepath.Join(dir, kind+"_fixture.py")}, nil
}

// nextName names the next process of a kind ("gtk3-2", "chromium-1"): its log, socket or profile.
func (s *Session) nextName(kind string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errClosed
	}
	s.appSeq[kind]++
	return fmt.Sprintf("%s-%d", kind, s.appSeq[kind]), nil
}

// fixtureDir is where the fixture scripts are: the source tree's (FixtureDir), else copies of the embedded
// ones written into DIR/fixtures.
func (s *Session) fixtureDir() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fixtures != "" {
		return s.fixtures, nil
	}
	if d, err := FixtureDir(); err == nil {
		s.fixtures = d
		return d, nil
	}
	d := filepath.Join(s.Dir, "fixtures")
	if err := writeEmbedded(apps.FS, d); err != nil {
		return "", fmt.Errorf("headless: embedded fixtures: %w", err)
	}
	s.fixtures = d
	return d, nil
}

// writeEmbedded writes the files of an embedded folder into dir (created 0700), each 0600: the
// copies a session uses away from the source tree.
func writeEmbedded(files embed.FS, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	entries, err := files.ReadDir(".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := files.ReadFile(e.Name())
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, e.Name()), b, 0o600)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
