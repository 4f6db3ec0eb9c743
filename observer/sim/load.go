package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/axbus/axbus/fixtures"
	"github.com/axbus/axbus/model"
)

// ReadSpec reads and validates the fixture at path. Errors name the file and where in it the
// problem is.
func ReadSpec(path string) (*DesktopSpec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	return Parse(filepath.Base(path), data)
}

// Parse decodes and validates a fixture; name labels its errors. Unknown fields are errors, so a
// misspelt field does not silently vanish.
func Parse(name string, data []byte) (*DesktopSpec, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var spec DesktopSpec
	if err := dec.Decode(&spec); err != nil {
		return nil, decodeError(name, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s:%s: unexpected data after the fixture", name, position(data, dec.InputOffset()))
	}
	if err := spec.validate(name); err != nil {
		return nil, err
	}
	return &spec, nil
}

// decodeError places a JSON error at its line and column.
func decodeError(name string, data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("%s:%s: %v", name, position(data, syntax.Offset-1), err) // Offset is just past the bad byte
	case errors.As(err, &typ):
		want := typ.Type.String()
		if typ.Type == reflect.TypeFor[Text]() {
			want = "a string, a number or a boolean"
		}
		at := "" // a Text's own error comes without an offset
		if typ.Offset > 0 {
			at = ":" + position(data, typ.Offset)
		}
		return fmt.Errorf("%s%s: %s: want %s, not a JSON %s", name, at, typ.Field, want, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: the fixture is empty or cut short", name)
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		key := regexp.MustCompile(regexp.QuoteMeta(field) + `\s*:`) // the field as a key, not a value
		if at := key.FindIndex(data); at != nil {
			return fmt.Errorf("%s:%s: unknown field %s", name, position(data, int64(at[0])), field)
		}
		return fmt.Errorf("%s: unknown field %s", name, field)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// position is "line:column" of a byte offset, both counted from 1.
func position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// Fixture starts the fixture desktop fixtures/desktops/<name>.json ("demo", "large").
func Fixture(name string, opts ...Option) (*Desktop, error) {
	data, ok := fixtures.Desktop(name)
	if !ok {
		return nil, model.Errorf(model.CodeBadRequest,
			fmt.Sprintf("Name a fixture (%s) or a desktop JSON file.", strings.Join(fixtures.Desktops(), ", ")),
			"no simulated desktop %q", name)
	}
	spec, err := Parse(name+".json", data)
	if err != nil {
		return nil, err
	}
	return New(spec, opts...)
}
