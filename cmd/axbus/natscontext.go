package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/axbus/axbus/observer"
)

// natsContext is the part of a nats CLI context (nats context save) that says how to connect.
type natsContext struct {
	URL      string `json:"url"`
	Nkey     string `json:"nkey"`
	Creds    string `json:"creds"`
	CA       string `json:"ca"`
	User     string `json:"user"`
	Password string `json:"password"`
	Token    string `json:"token"`
}

// natsConfigDir is where the nats CLI keeps its contexts: $XDG_CONFIG_HOME/nats, or
// ~/.config/nats.
func natsConfigDir() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "nats")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".config", "nats")
}

// loadNatsContext reads the named context of the nats CLI.
func loadNatsContext(name string) (*natsContext, error) {
	if strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return nil, observer.Errorf(observer.CodeBadRequest, "Name a context as nats context ls lists it.", "bad context name %q", name)
	}
	path := filepath.Join(natsConfigDir(), "context", name+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, observer.Errorf(observer.CodeBadRequest, "List the contexts with: nats context ls",
			"no nats context %q (%s)", name, path)
	}
	var c natsContext
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, observer.Errorf(observer.CodeBadRequest, "Fix it with: nats context edit "+name,
			"nats context %q is not JSON: %v", name, err)
	}
	for _, p := range []*string{&c.Nkey, &c.Creds, &c.CA} {
		*p = expandHome(*p)
	}
	return &c, nil
}

// expandHome expands a leading ~/ as the nats CLI does in context paths.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
