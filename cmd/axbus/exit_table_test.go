package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/schemas"
)

// TestOneErrorTable: observer's table of codes, the error schema's enum and the README's exit
// table say the same: every code once, with the exit status the CLI gives it.
func TestOneErrorTable(t *testing.T) {
	table := model.CodeTable()
	var codes []string
	for _, c := range table {
		codes = append(codes, string(c.Code))
		if c.Status < 400 || c.Status > 599 || c.Exit < 1 || c.Suggestion == "" {
			t.Errorf("%s: status %d, exit %d, suggestion %q", c.Code, c.Status, c.Exit, c.Suggestion)
		}
		if got := report(model.Errorf(c.Code, "", "x"), &strings.Builder{}, &strings.Builder{}); got != c.Exit {
			t.Errorf("%s: the CLI exits %d, the table says %d", c.Code, got, c.Exit)
		}
	}

	doc, _ := schemas.Get("error")
	var schema struct {
		Properties struct {
			Error struct {
				Properties struct {
					Code struct {
						Enum []string `json:"enum"`
					} `json:"code"`
				} `json:"properties"`
			} `json:"error"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(doc, &schema); err != nil {
		t.Fatal(err)
	}
	if enum := schema.Properties.Error.Properties.Code.Enum; !slices.Equal(enum, codes) {
		t.Errorf("the error schema's codes\n  %v\ndiffer from the table's\n  %v", enum, codes)
	}

	readme, err := os.ReadFile(filepath.Join(testdaemon.ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (\d+) \| ([^|]*)\|([^|]*)\|`)
	code := regexp.MustCompile("`([A-Z_]+)`")
	inReadme := map[string]int{}
	statuses := map[int]string{} // exit status: its row's micro statuses
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		exit, _ := strconv.Atoi(m[1])
		statuses[exit] = strings.TrimSpace(m[3])
		for _, c := range code.FindAllStringSubmatch(m[2], -1) {
			if _, dup := inReadme[c[1]]; dup {
				t.Errorf("the README lists %s twice", c[1])
			}
			inReadme[c[1]] = exit
		}
	}
	for _, c := range table {
		if got, ok := inReadme[string(c.Code)]; !ok || got != c.Exit {
			t.Errorf("the README says %s exits %d (listed: %v), the table %d", c.Code, got, ok, c.Exit)
		}
		if st := statuses[c.Exit]; st != "" && !strings.Contains(st, strconv.Itoa(c.Status)) {
			t.Errorf("the README's row of exit %d gives micro statuses %q, without %s's %d", c.Exit, st, c.Code, c.Status)
		}
		delete(inReadme, string(c.Code))
	}
	for c := range inReadme {
		t.Errorf("the README lists %s, which the table does not have", c)
	}
}
