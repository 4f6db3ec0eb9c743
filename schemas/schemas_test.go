package schemas

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/axbus/axbus/api"
)

func TestEverySchemaCompiles(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}

// TestTheSchemasAreTheAPIs: a request and a reply schema for every endpoint of api.Endpoints,
// the shared ones, and nothing else.
func TestTheSchemasAreTheAPIs(t *testing.T) {
	want := []string{"act", "action.reply", "condition", "defs", "error", "event", "flow", "snap"}
	for _, ep := range api.Endpoints {
		want = append(want, ep.Name+".request", ep.Name+".reply")
	}
	slices.Sort(want)
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("schemas\n  %v\nwant\n  %v", got, want)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		schema, doc string
		want        string // "" valid; else a substring of the error
		offset      int64
	}{
		{"inspect.request", `{"app":"Notes"}`, "", -1},
		{"inspect.request", `{"pid":501,"window":"Main"}`, "", -1},
		{"inspect.request", `{}`, "/", -1},
		{"inspect.request", `{"app":"Notes","colour":"red"}`, "colour", -1},
		{"inspect.request", `{"pid":"501"}`, "/pid", -1},
		{"inspect.request", `{"pid":0}`, "/pid", -1},
		{"inspect.request", `{"app":""}`, "/app", -1},
		{"inspect.request", `{"app":"Notes"`, "not valid JSON", 14},
		{"inspect.request", `{"app":"Notes"} {}`, "not valid JSON", -2},
		{"apps.request", `{}`, "", -1},
		{"click.request", `{"locator":"role=button,name=Save","app":"Notes","timeout_ms":2000}`, "", -1},
		{"click.request", `{"locator":"role=button,name=Save"}`, "/", -1},
		{"click.request", `{}`, "/", -1},
		{"click.request", `{"target":"s_1a:e3"}`, "", -1},
		{"apps.request", `[]`, "want object", -1},
	} {
		err := Validate(c.schema, []byte(c.doc))
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %s: %v", c.schema, c.doc, err)
			}
			continue
		}
		var ie *InvalidError
		if !errors.As(err, &ie) {
			t.Errorf("%s %s: want InvalidError, got %v", c.schema, c.doc, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: error %q lacks %q", c.schema, c.doc, err, c.want)
		}
		if c.offset >= 0 && ie.Offset != c.offset {
			t.Errorf("%s %s: offset %d, want %d", c.schema, c.doc, ie.Offset, c.offset)
		}
	}
}

// FuzzValidate: any bytes against any schema give nil or an error, never a panic.
func FuzzValidate(f *testing.F) {
	f.Add(0, []byte(`{"app":"Notes"}`))
	f.Add(3, []byte(`{"pid":1`))
	f.Add(5, []byte(`[{"a":[1,2,{"b":null}]}]`))
	f.Fuzz(func(t *testing.T, which int, doc []byte) {
		names := Names()
		name := names[(which%len(names)+len(names))%len(names)]
		err := Validate(name, doc)
		var ie *InvalidError
		if err != nil && !errors.As(err, &ie) {
			t.Fatalf("%s: unexpected error kind %T: %v", name, err, err)
		}
	})
}
