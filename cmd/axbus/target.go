package main

import (
	"errors"
	"os"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/embedded"
)

// natsTarget is a server to connect to and how to authenticate: url "" is the local daemon.
type natsTarget struct {
	url                  string
	nkey, creds          string
	user, password       string
	token                string
	ca, cert, key        string
	tlsFirst             bool
	contextName, context string // the nats CLI context it came from, and its file
}

// resolve merges the flags (and their NATS_* variables) over the nats CLI's context: --context,
// NATS_CONTEXT or else the one `nats context select` chose (unless --state-dir names a local
// daemon). A flag given wins over the context's field, and credentials given (--nkey, --creds)
// replace the context's. Without a URL the target is the local daemon, as whoever the
// credentials name.
func (f *connFlags) resolve() (natsTarget, error) {
	var t natsTarget
	name := f.Context
	if name == "" && f.StateDir == "" {
		name = selectedNatsContext()
	}
	if name != "" {
		c, path, err := loadNatsContext(name)
		if err != nil {
			return t, err
		}
		t = c.target()
		t.contextName, t.context = name, path
	}
	if err := f.filesExist(); err != nil {
		return t, err
	}
	if f.Nkey != "" || f.Creds != "" {
		t.nkey, t.creds, t.user, t.password, t.token = f.Nkey, f.Creds, "", "", ""
	}
	for _, o := range []struct {
		dst *string
		v   string
	}{{&t.url, f.Server}, {&t.ca, f.TLSCA}, {&t.cert, f.TLSCert}, {&t.key, f.TLSKey}} {
		if o.v != "" {
			*o.dst = o.v
		}
	}
	if (t.cert == "") != (t.key == "") {
		return t, model.Errorf(model.CodeBadRequest, "Give both --tls-cert and --tls-key (NATS_CERT and NATS_KEY), or neither.",
			"a client certificate needs its key and a key its certificate")
	}
	return t, nil
}

// filesExist checks the files the flags (or their NATS_* variables) name. The flags are plain
// strings, not kong's existingfile, so that a variable set empty means none, as for the nats CLI.
func (f *connFlags) filesExist() error {
	for _, o := range []struct{ flag, env, path string }{
		{"--nkey", "NATS_NKEY", f.Nkey}, {"--creds", "NATS_CREDS", f.Creds}, {"--tls-ca", "NATS_CA", f.TLSCA},
		{"--tls-cert", "NATS_CERT", f.TLSCert}, {"--tls-key", "NATS_KEY", f.TLSKey},
	} {
		if o.path == "" {
			continue
		}
		if fi, err := os.Stat(o.path); err != nil || fi.IsDir() {
			return model.Errorf(model.CodeBadRequest, "Give "+o.flag+" (or "+o.env+") a file.", "%s %s: no such file", o.flag, o.path)
		}
	}
	return nil
}

// hasIdentity says whether the target names who to connect as.
func (t natsTarget) hasIdentity() bool {
	return t.nkey != "" || t.creds != "" || t.user != "" || t.token != ""
}

// authOptions are the target's credentials as the nats CLI takes them: a user and password, a
// credentials file or an nkey (the first given), and a token besides.
func (t natsTarget) authOptions() ([]nats.Option, error) {
	var opts []nats.Option
	switch {
	case t.user != "":
		opts = append(opts, nats.UserInfo(t.user, t.password))
	case t.creds != "":
		creds, err := credRef(t.creds).credsOption()
		if err != nil {
			return nil, err
		}
		opts = append(opts, creds)
	case t.nkey != "":
		nkey, err := credRef(t.nkey).nkeyOption()
		if err != nil {
			return nil, err
		}
		opts = append(opts, nkey)
	}
	if t.token != "" {
		opts = append(opts, nats.Token(t.token))
	}
	return opts, nil
}

// connect connects to the target's server.
func (t natsTarget) connect(extra ...nats.Option) (*nats.Conn, error) {
	opts, err := t.authOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, nats.Name("axbus"), nats.Timeout(2*time.Second))
	if t.cert != "" {
		opts = append(opts, nats.ClientCert(t.cert, t.key))
	}
	if t.ca != "" {
		opts = append(opts, nats.RootCAs(t.ca))
	}
	if t.tlsFirst {
		opts = append(opts, nats.TLSHandshakeFirst())
	}
	nc, err := nats.Connect(t.url, append(opts, extra...)...)
	if err != nil {
		return nil, t.connectError(t.url, err)
	}
	return nc, nil
}

// connectLocal connects to the local daemon its state dir names (daemon.json: the URL, and the
// certificate it pins when it requires TLS): as the target's identity when one is given, else
// as the daemon's owner (the state dir's client.nk). The local daemon asks for no client
// certificate, and its pin stands for any CA.
func (t natsTarget) connectLocal(stateDir string, extra ...nats.Option) (*nats.Conn, error) {
	if !t.hasIdentity() {
		nc, _, err := embedded.Connect(stateDir, extra...)
		return nc, err
	}
	auth, err := t.authOptions()
	if err != nil {
		return nil, err
	}
	opts := append(append([]nats.Option{withoutOwnerKey}, auth...), extra...)
	nc, info, err := embedded.Connect(stateDir, opts...)
	if err != nil && info.URL != "" {
		return nil, t.connectError(info.URL, err)
	}
	return nc, err
}

// withoutOwnerKey takes back the owner's key embedded.Connect sets, so that the identity given
// takes its place (nats.go refuses an nkey beside a credentials file's JWT).
func withoutOwnerKey(o *nats.Options) error {
	o.Nkey, o.SignatureCB = "", nil
	return nil
}

// connectError says why url refused the connection, or could not be reached.
func (t natsTarget) connectError(url string, err error) error {
	via := ""
	if t.contextName != "" {
		via = " (from the nats context " + t.contextName + ", " + t.context + ")"
	}
	if errors.Is(err, nats.ErrAuthorization) {
		return model.Errorf(model.CodePermissionDenied, "Check the credentials (--nkey, --creds, --context): an admin lists them with axbus creds ls.",
			"%s%s does not know these credentials (never added, or removed)", url, via).Wrap(err)
	}
	return model.Errorf(model.CodeUnavailable, "Check the server's URL and credentials (-s, --nkey, --creds, --context).",
		"cannot connect to %s%s: %v", url, via, err).Wrap(err)
}
