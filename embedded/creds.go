package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nats-io/nkeys"
)

// loadOrCreateCreds returns the path and public key of the client user nkey
// whose seed lives in the state directory, generating it on first start.
// Clients authenticate with it over TCP (nats.NkeyOptionFromSeed, or
// `nats --nkey`).
func loadOrCreateCreds(dir string) (path, pub string, err error) {
	path = filepath.Join(dir, credsFileName)
	pub, err = loadOrCreateSeed(path)
	return path, pub, err
}

// loadOrCreateSeed returns the public key of the nkey seed in path, made (mode 0600) when
// missing; a seed others may read is refused.
func loadOrCreateSeed(path string) (pub string, err error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		pub, err = createCreds(path)
		return pub, err
	case err != nil:
		return "", fmt.Errorf("credentials %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("credentials: %s is not a regular file", path)
	}
	// The seed is the key to the bus: refuse rather than silently tighten,
	// the user should know it may have leaked.
	if fi.Mode().Perm()&0o077 != 0 {
		return "", &InsecureCredsError{Path: path, Mode: fi.Mode()}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("credentials %s: %w", path, err)
	}
	defer wipe(data)
	kp, err := nkeys.ParseDecoratedUserNKey(data)
	if err != nil {
		return "", fmt.Errorf("credentials %s: %w", path, err)
	}
	defer kp.Wipe()
	pub, err = kp.PublicKey()
	if err != nil {
		return "", fmt.Errorf("credentials %s: %w", path, err)
	}
	return pub, nil
}

func createCreds(path string) (string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", fmt.Errorf("generate client nkey: %w", err)
	}
	defer kp.Wipe()
	seed, err := kp.Seed()
	if err != nil {
		return "", fmt.Errorf("generate client nkey: %w", err)
	}
	defer wipe(seed)
	pub, err := kp.PublicKey()
	if err != nil {
		return "", fmt.Errorf("generate client nkey: %w", err)
	}
	data := append(seed, '\n')
	defer wipe(data)
	if err := writeFileAtomic(path, data, privateFileMod); err != nil {
		return "", fmt.Errorf("client creds: %w", err)
	}
	return pub, nil
}

func wipe(b []byte) {
	for i := range b {
		b[i] = 'x'
	}
}
