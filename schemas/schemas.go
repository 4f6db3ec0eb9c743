package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var english = message.NewPrinter(language.English)

//go:embed json/*.json
var files embed.FS

// idPrefix makes a schema's $id from its name: urn:axbus:inspect.request.
const idPrefix = "urn:axbus:"

var (
	compileOnce sync.Once
	compiled    map[string]*jsonschema.Schema
	compileErr  error
)

// Names lists the schemas, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, "json")
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	slices.Sort(names)
	return names
}

// Get returns the schema document called name.
func Get(name string) ([]byte, bool) {
	b, err := files.ReadFile(path.Join("json", name+".json"))
	return b, err == nil
}

// ID returns the $id of the schema called name.
func ID(name string) string { return idPrefix + name }

func compileAll() {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, name := range Names() {
		raw, _ := Get(name)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			compileErr = fmt.Errorf("schema %s: %w", name, err)
			return
		}
		if err := c.AddResource(ID(name), doc); err != nil {
			compileErr = fmt.Errorf("schema %s: %w", name, err)
			return
		}
	}
	compiled = map[string]*jsonschema.Schema{}
	for _, name := range Names() {
		s, err := c.Compile(ID(name))
		if err != nil {
			compileErr = fmt.Errorf("schema %s: %w", name, err)
			return
		}
		compiled[name] = s
	}
}

// Check compiles every schema and reports the first one that is broken.
func Check() error {
	compileOnce.Do(compileAll)
	return compileErr
}

// Problem is one reason a document does not match its schema.
type Problem struct {
	At    string `json:"at"` // a JSON pointer into the document; "" is the whole document
	Error string `json:"error"`
}

// InvalidError says why a document was refused: not JSON at all (Offset >= 0), or not matching
// the schema (Problems).
type InvalidError struct {
	Schema   string
	Offset   int64 // byte offset of a JSON syntax error, or -1
	Syntax   string
	Problems []Problem
}

func (e *InvalidError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("not valid JSON at byte %d: %s", e.Offset, e.Syntax)
	}
	parts := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		at := p.At
		if at == "" {
			at = "/"
		}
		parts = append(parts, at+": "+p.Error)
	}
	return fmt.Sprintf("does not match schema %s: %s", e.Schema, strings.Join(parts, "; "))
}

// Validate checks that data is JSON matching the schema called name.
func Validate(name string, data []byte) error {
	if err := Check(); err != nil {
		return err
	}
	s, ok := compiled[name]
	if !ok {
		return fmt.Errorf("no schema called %q", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return syntaxError(name, data)
	}
	if err := s.Validate(doc); err != nil {
		ve, ok := err.(*jsonschema.ValidationError)
		if !ok {
			return err
		}
		return &InvalidError{Schema: name, Offset: -1, Problems: problems(ve)}
	}
	return nil
}

// syntaxError locates a JSON syntax error with the standard decoder, which reports offsets.
func syntaxError(name string, data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	switch {
	case err == nil: // trailing data after a valid value
		return &InvalidError{Schema: name, Offset: int64(len(data)), Syntax: "unexpected data after the JSON value"}
	case asSyntax(err, &se):
		return &InvalidError{Schema: name, Offset: se.Offset, Syntax: se.Error()}
	default:
		return &InvalidError{Schema: name, Offset: 0, Syntax: err.Error()}
	}
}

func asSyntax(err error, se **json.SyntaxError) bool {
	s, ok := err.(*json.SyntaxError)
	*se = s
	return ok
}

// problems flattens a validation error into its leaves, the causes a person can act on.
func problems(ve *jsonschema.ValidationError) []Problem {
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, Problem{At: pointer(e.InstanceLocation), Error: e.ErrorKind.LocalizedString(english)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// pointer writes a JSON pointer (RFC 6901).
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}
