package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/axbus/axbus/model"
)

// natsContext is the part of a nats CLI context (nats context save) that says how to connect.
type natsContext struct {
	URL      string `json:"url"`
	Nkey     string `json:"nkey"`
	Creds    string `json:"creds"`
	User     string `json:"user"`
	Password string `json:"password"`
	Token    string `json:"token"`
	CA       string `json:"ca"`
	Cert     string `json:"cert"`
	Key      string `json:"key"`
	TLSFirst bool   `json:"tls_first"`
	UserJWT  string `json:"user_jwt"`
	UserSeed string `json:"user_seed"`
}

// target is where and as whom the context connects.
func (c *natsContext) target() natsTarget {
	return natsTarget{url: c.URL, nkey: c.Nkey, creds: c.Creds, user: c.User, password: c.Password, token: c.Token,
		ca: c.CA, cert: c.Cert, key: c.Key, tlsFirst: c.TLSFirst}
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

// selectedNatsContext is the context `nats context select` chose (context.txt), or "".
func selectedNatsContext() string {
	b, err := os.ReadFile(filepath.Join(natsConfigDir(), "context.txt"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// loadNatsContext reads the named context of the nats CLI, and says which file it read.
func loadNatsContext(name string) (*natsContext, string, error) {
	if strings.ContainsAny(name, `/\`) || strings.Contains(name, "..") {
		return nil, "", model.Errorf(model.CodeBadRequest, "Name a context as nats context ls lists it.", "bad context name %q", name)
	}
	path := filepath.Join(natsConfigDir(), "context", name+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, path, model.Errorf(model.CodeBadRequest, "List the contexts with: nats context ls (nats context select chooses the default one)",
			"no nats context %q (%s)", name, path)
	}
	var c natsContext
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, path, model.Errorf(model.CodeBadRequest, "Fix it with: nats context edit "+name,
			"nats context %q is not JSON: %v", name, err)
	}
	if c.UserJWT != "" || c.UserSeed != "" {
		return nil, path, model.Errorf(model.CodeBadRequest, "Save the context with a credentials file instead: nats context add "+name+" --creds FILE",
			"axbus does not read the nats context %q's user_jwt and user_seed", name)
	}
	c.Nkey, c.Creds = string(credRef(c.Nkey).expanded()), string(credRef(c.Creds).expanded())
	for _, p := range []*string{&c.CA, &c.Cert, &c.Key} {
		*p = expandPath(*p)
	}
	return &c, path, nil
}
