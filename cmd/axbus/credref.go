package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// credRef is where an nkey or credentials are, in the forms the nats CLI writes in a context: a
// path, file://PATH, env://NAME (the content in a variable) or data:;base64,… (the content
// itself, nats context add --embed).
type credRef string

// scheme is the reference's scheme in lower case: "" or "file" for a file.
func (r credRef) scheme() string {
	scheme, _, _ := strings.Cut(string(r), ":")
	return strings.ToLower(scheme)
}

// expanded is the reference with its path's $VARs and leading ~/ expanded, as the nats CLI
// reads a context's paths.
func (r credRef) expanded() credRef {
	switch r.scheme() {
	case "env", "data", "op", "nsc":
		return r
	}
	return credRef(expandPath(strings.TrimPrefix(string(r), "file://")))
}

// open returns the reference's file, or else its content.
func (r credRef) open() (path string, content []byte, err error) {
	ref := string(r)
	scheme := r.scheme()
	_, rest, _ := strings.Cut(ref, ":")
	switch scheme {
	case "env":
		name := strings.TrimPrefix(rest, "//")
		v := os.Getenv(name)
		if name == "" || v == "" {
			return "", nil, model.Errorf(model.CodeBadRequest, "Set the variable, or give the context a file.",
				"the nats context's %s names an empty or unset variable", ref)
		}
		return "", []byte(v), nil
	case "data":
		header, payload, ok := strings.Cut(rest, ",")
		b, err := base64.StdEncoding.DecodeString(payload)
		if !ok || !strings.Contains(header, ";base64") || err != nil {
			return "", nil, model.Errorf(model.CodeBadRequest, "Embed it again with nats context add --embed.",
				"the nats context's embedded credential is not data:;base64,…")
		}
		return "", b, nil
	case "op", "nsc":
		return "", nil, model.Errorf(model.CodeBadRequest, "Give the context the credential's file (nats context edit), or pass --nkey/--creds.",
			"axbus does not run the %s tool the nats context's %s:// credential needs", scheme, scheme)
	}
	return strings.TrimPrefix(ref, "file://"), nil, nil
}

// nkeyOption authenticates with the nkey seed the reference holds.
func (r credRef) nkeyOption() (nats.Option, error) {
	path, content, err := r.open()
	if err != nil {
		return nil, err
	}
	if path != "" {
		opt, err := nats.NkeyOptionFromSeed(path)
		if err != nil {
			return nil, model.Errorf(model.CodeBadRequest, "Pass an nkey seed file, as axbus creds add writes (--nkey FILE).",
				"nkey %s: %v", path, err)
		}
		return opt, nil
	}
	kp, err := nkeys.ParseDecoratedNKey(content)
	if err != nil {
		return nil, model.Errorf(model.CodeBadRequest, "Give the context an nkey seed.", "the nats context's nkey: %v", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, err
	}
	return nats.Nkey(pub, kp.Sign), nil
}

// credsOption authenticates with the credentials (JWT and seed) the reference holds.
func (r credRef) credsOption() (nats.Option, error) {
	path, content, err := r.open()
	if err != nil {
		return nil, err
	}
	if path != "" {
		return nats.UserCredentials(path), nil
	}
	jwt, jerr := nkeys.ParseDecoratedJWT(content)
	kp, kerr := nkeys.ParseDecoratedUserNKey(content)
	if jerr != nil || kerr != nil {
		return nil, model.Errorf(model.CodeBadRequest, "Give the context a NATS credentials file.",
			"the nats context's credentials hold no JWT and user seed")
	}
	defer kp.Wipe()
	seed, err := kp.Seed()
	if err != nil {
		return nil, err
	}
	return nats.UserJWTAndSeed(jwt, string(seed)), nil
}

// expandPath expands $VARs and a leading ~/ in a path of a nats CLI context, as the nats CLI does.
func expandPath(p string) string {
	p = os.ExpandEnv(p)
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
