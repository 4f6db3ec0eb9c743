package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
)

var (
	bundleMu    sync.Mutex
	bundleCache = map[string]json.RawMessage{}
)

// Bundled returns the schema called name as one self-contained document, for clients that
// cannot resolve urn:axbus: references (MCP tools' inputSchema/outputSchema): a client gets one
// schema per tool and has no way to fetch the others it points to.
//
// Every schema the document refers to, directly or through others, is copied into the result's
// top-level $defs under a key made from its URN: urn:axbus:defs#/$defs/app_name becomes
// "defs.app_name", urn:axbus:condition becomes "condition". Every $ref is rewritten to
// "#/$defs/<key>", so recursive schemas (a condition's of holds conditions) stay finite. The
// document's own $defs keep their names and its local references stay as they are. $schema and
// $id are dropped (some clients refuse a draft URI they do not know; the schemas are draft
// 2020-12); everything else is kept. The output is deterministic (keys sorted) and cached; the
// caller gets its own copy.
func Bundled(name string) (json.RawMessage, error) {
	bundleMu.Lock()
	defer bundleMu.Unlock()
	if b, ok := bundleCache[name]; ok {
		return slices.Clone(b), nil
	}
	b, err := bundle(name)
	if err != nil {
		return nil, err
	}
	bundleCache[name] = b
	return slices.Clone(b), nil
}

// bundler builds one bundled document.
type bundler struct {
	root  string
	docs  map[string]any    // parsed schema documents by name
	defs  map[string]any    // the result's $defs
	owner map[string]string // $defs key → the schema it stands for (document#pointer)
	queue []copyJob
}

// copyJob is a schema to copy into $defs under key: the one at pointer ptr of document doc.
type copyJob struct {
	key, doc string
	ptr      []string
}

func bundle(name string) (json.RawMessage, error) {
	b := &bundler{root: name, docs: map[string]any{}, defs: map[string]any{}, owner: map[string]string{}}
	doc, err := b.load(name)
	if err != nil {
		return nil, err
	}
	rootMap, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema %s: not an object", name)
	}
	// The root's own $defs keep their names (its local refs need no rewriting); reserve them
	// first so that no copied schema can take one.
	var ownDefs map[string]any
	if d, ok := rootMap["$defs"]; ok {
		if ownDefs, ok = d.(map[string]any); !ok {
			return nil, fmt.Errorf("schema %s: $defs is not an object", name)
		}
		for k := range ownDefs {
			b.owner[k] = name + "#/$defs/" + escapeToken(k)
		}
	}
	out, err := b.schema(rootMap, name, true)
	if err != nil {
		return nil, err
	}
	for k, v := range ownDefs {
		c, err := b.value(v, name)
		if err != nil {
			return nil, err
		}
		b.defs[k] = c
	}
	for len(b.queue) > 0 {
		job := b.queue[0]
		b.queue = b.queue[1:]
		doc, err := b.load(job.doc)
		if err != nil {
			return nil, err
		}
		node, err := resolve(doc, job.ptr)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", job.doc, err)
		}
		var c any
		if m, ok := node.(map[string]any); ok {
			// A whole document loses its $defs too: the parts referenced get keys of their own.
			c, err = b.schema(m, job.doc, len(job.ptr) == 0)
		} else {
			c, err = b.value(node, job.doc) // a boolean schema
		}
		if err != nil {
			return nil, err
		}
		b.defs[job.key] = c
	}
	if len(b.defs) > 0 {
		out["$defs"] = b.defs
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

func (b *bundler) load(name string) (any, error) {
	if d, ok := b.docs[name]; ok {
		return d, nil
	}
	raw, ok := Get(name)
	if !ok {
		return nil, fmt.Errorf("no schema called %q", name)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers stay as written
	var d any
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	b.docs[name] = d
	return d, nil
}

// schema copies the schema object m of document doc, rewriting its references. At a document's
// root (top) it drops $schema, $id and $defs.
func (b *bundler) schema(m map[string]any, doc string, top bool) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch k {
		case "$schema", "$id", "$defs":
			if top {
				continue
			}
			if k == "$id" {
				return nil, fmt.Errorf("schema %s: a nested $id is not supported", doc)
			}
		case "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor":
			return nil, fmt.Errorf("schema %s: %s is not supported", doc, k)
		}
		switch k {
		case "$ref":
			ref, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("schema %s: $ref %v is not a string", doc, v)
			}
			r, err := b.ref(ref, doc)
			if err != nil {
				return nil, err
			}
			out[k] = r
		case "enum", "const", "default", "examples":
			out[k] = v // instance values, not schemas: a "$ref" in them is data
		case "properties", "patternProperties", "dependentSchemas", "$defs":
			named, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("schema %s: %s is not an object", doc, k)
			}
			c := make(map[string]any, len(named))
			for n, s := range named {
				cs, err := b.value(s, doc)
				if err != nil {
					return nil, err
				}
				c[n] = cs
			}
			out[k] = c
		default:
			c, err := b.value(v, doc)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
	}
	return out, nil
}

// value copies a keyword's value: objects in it are schemas, arrays are walked, the rest is kept.
func (b *bundler) value(v any, doc string) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		return b.schema(v, doc, false)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			c, err := b.value(e, doc)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	default:
		return v, nil
	}
}

// ref rewrites a reference found in document doc to point into the bundle, and queues the copy
// of the schema it names.
func (b *bundler) ref(ref, doc string) (string, error) {
	base, frag, _ := strings.Cut(ref, "#")
	target := doc
	if base != "" {
		if !strings.HasPrefix(base, idPrefix) {
			return "", fmt.Errorf("schema %s: cannot bundle the reference %q", doc, ref)
		}
		target = strings.TrimPrefix(base, idPrefix)
	}
	ptr, err := splitPointer(frag)
	if err != nil {
		return "", fmt.Errorf("schema %s: reference %q: %w", doc, ref, err)
	}
	tdoc, err := b.load(target)
	if err != nil {
		return "", fmt.Errorf("schema %s: reference %q: %w", doc, ref, err)
	}
	if _, err := resolve(tdoc, ptr); err != nil {
		return "", fmt.Errorf("schema %s: reference %q: %w", doc, ref, err)
	}
	if target == b.root { // the bundle's root is the document itself
		return "#" + joinPointer(ptr), nil
	}
	parts := ptr
	if len(parts) >= 2 && parts[0] == "$defs" {
		parts = parts[1:]
	}
	key := strings.Join(append([]string{target}, parts...), ".")
	if !validKey(key) {
		return "", fmt.Errorf("schema %s: reference %q: no $defs key can be made of %q", doc, ref, key)
	}
	id := target + "#" + joinPointer(ptr)
	switch owner, ok := b.owner[key]; {
	case !ok:
		b.owner[key] = id
		b.queue = append(b.queue, copyJob{key: key, doc: target, ptr: ptr})
	case owner != id:
		return "", fmt.Errorf("schema %s: %s and %s would both be $defs/%s", b.root, owner, id, key)
	}
	return "#/$defs/" + key, nil
}

// splitPointer parses the fragment of a reference, a JSON pointer, into its tokens.
func splitPointer(frag string) ([]string, error) {
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, err
	}
	if frag == "" {
		return nil, nil
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("only JSON pointer fragments are supported")
	}
	tokens := strings.Split(frag[1:], "/")
	for i, t := range tokens {
		tokens[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return tokens, nil
}

func joinPointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(escapeToken(t))
	}
	return sb.String()
}

func escapeToken(t string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(t) }

// resolve finds the value at the JSON pointer tokens in doc.
func resolve(doc any, tokens []string) (any, error) {
	node := doc
	for i, t := range tokens {
		ok := false
		switch n := node.(type) {
		case map[string]any:
			node, ok = n[t]
		case []any:
			if j, err := strconv.Atoi(t); err == nil && j >= 0 && j < len(n) && t == strconv.Itoa(j) {
				node, ok = n[j], true
			}
		}
		if !ok {
			return nil, fmt.Errorf("nothing at #%s", joinPointer(tokens[:i+1]))
		}
	}
	return node, nil
}

// validKey: a $defs key usable in a reference as it is, needing no escaping in a pointer or URI.
func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
