package archtest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/axbus/axbus/"

// thirdParty names, as the package table writes them, the modules a package may import.
var thirdParty = map[string][]string{
	"godbus":      {"github.com/godbus/dbus/v5"},
	"xgb":         {"github.com/jezek/xgb"},
	"backoff":     {"github.com/cenkalti/backoff/v4"},
	"purego":      {"github.com/ebitengine/purego"},
	"nats.go":     {"github.com/nats-io/nats.go", "github.com/nats-io/nkeys", "github.com/nats-io/nuid"},
	"nats-server": {"github.com/nats-io/nats-server/v2", "github.com/nats-io/jwt/v2"},
	"jsonschema":  {"github.com/santhosh-tekuri/jsonschema/v6"},
	"go-sdk":      {"github.com/modelcontextprotocol/go-sdk"},
	"kong":        {"github.com/alecthomas/kong"},
	"pty":         {"github.com/creack/pty"},
	"x/sys":       {"golang.org/x/sys"},
	"x/text":      {"golang.org/x/text"},
}

// rule is one row of the package table: a package and what it may import.
type rule struct {
	dir     string
	allowed []string // import paths, each with the packages of its folder that have no row of their own
}

var row = regexp.MustCompile("^\\| `([a-z0-9/]+)/` \\|.*\\| ([^|]+) \\|$")

// rules reads the package table of ARCHITECTURE.md: every row that names a package directory,
// but those that may import everything (the composition roots) or nothing is said of; and the
// import path of every row's package, those included.
func rules(t *testing.T) (out []rule, rows []string) {
	f, err := os.Open(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		rows = append(rows, module+m[1])
		imports := strings.TrimSpace(regexp.MustCompile(`\(.*\)`).ReplaceAllString(m[2], ""))
		if strings.HasPrefix(imports, "everything") || imports == "-" {
			continue
		}
		r := rule{dir: m[1]}
		if !strings.HasPrefix(imports, "standard library") {
			for _, name := range strings.Split(imports, ", ") {
				name = strings.TrimSpace(name)
				if mods, ok := thirdParty[name]; ok {
					r.allowed = append(r.allowed, mods...)
				} else {
					r.allowed = append(r.allowed, module+name)
				}
			}
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 15 {
		t.Fatalf("read %d rules from ARCHITECTURE.md's package table: has it changed shape?", len(out))
	}
	return out, rows
}

// names reports whether name, as a row's last cell writes it (an import path), allows imp: imp
// itself, or a package in its folder that has no row of its own. "observer" allows neither
// observer/live nor observer/ax: their rows say what they are, and a row that may import them
// names them.
func names(name, imp string, rows []string) bool {
	if imp == name {
		return true
	}
	if !strings.HasPrefix(imp, name+"/") {
		return false
	}
	return !slices.ContainsFunc(rows, func(row string) bool {
		return len(row) > len(name) && (imp == row || strings.HasPrefix(imp, row+"/"))
	})
}

// TestImportsFollowThePackageTable: each package imports, on Linux and on macOS, only the
// standard library, itself and what its row of ARCHITECTURE.md's package table names.
func TestImportsFollowThePackageTable(t *testing.T) {
	rs, rows := rules(t)
	for _, r := range rs {
		for _, goos := range []string{"linux", "darwin"} {
			cmd := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "./"+r.dir)
			cmd.Dir = filepath.Join("..", "..")
			cmd.Env = append(cmd.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go list ./%s: %v\n%s", r.dir, err, out)
			}
			for _, imp := range strings.Fields(string(out)) {
				first, _, _ := strings.Cut(imp, "/")
				if !strings.Contains(first, ".") || names(module+r.dir, imp, rows) {
					continue // the standard library, or a package of its own folder
				}
				if !slices.ContainsFunc(r.allowed, func(a string) bool { return names(a, imp, rows) }) {
					t.Errorf("GOOS=%s: %s imports %s, which its row of ARCHITECTURE.md does not name", goos, r.dir, imp)
				}
			}
		}
	}
}

// TestEveryPackageSaysWhatItIsFor: every package has a doc comment.
func TestEveryPackageSaysWhatItIsFor(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Doc}}", "./...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, doc, _ := strings.Cut(line, "\t"); strings.TrimSpace(doc) == "" {
			t.Errorf("package %s has no doc comment", path)
		}
	}
}

// maxLines bounds a non-test source file: past it, a file holds more than one concept.
const maxLines = 500

// TestNoSourceFileIsLong: every non-test Go file is at most maxLines lines.
func TestNoSourceFileIsLong(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir // .git, .tools
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := strings.Count(string(data), "\n"); n > maxLines {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s has %d lines, more than %d: split it by concept", rel, n, maxLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// closures are the rules on a package's whole dependency closure, beyond its own imports: the
// model and the observer's core know no platform and no NATS; the wire types need nothing but the
// model; a Go agent's client holds no service, no observer, no server and no platform package
// (backoff, standard library alone, paces its asking again).
var closures = []struct {
	dir string
	// allowed are the only packages (not the standard library) the closure may hold; one
	// ending in "/..." stands for a module and all its packages.
	allowed []string
}{
	{"model", []string{module + "model"}},
	{"observer", []string{module + "observer", module + "model"}},
	{"api", []string{module + "api", module + "model"}},
	{"client", []string{module + "client", module + "api", module + "model",
		"github.com/nats-io/nats.go/...", "github.com/nats-io/nkeys/...", "github.com/nats-io/nuid/...",
		"github.com/klauspost/compress/...", "github.com/cenkalti/backoff/v4", "golang.org/x/crypto/...", "golang.org/x/sys/..."}},
}

// allows says whether dep is one of allowed.
func allows(allowed []string, dep string) bool {
	return slices.ContainsFunc(allowed, func(a string) bool {
		module, ok := strings.CutSuffix(a, "/...")
		return dep == a || ok && (dep == module || strings.HasPrefix(dep, module+"/"))
	})
}

// TestDependencyClosures: model's closure is the standard library, observer's and api's the
// standard library and model (no NATS, no schema validator, no platform package), client's api,
// model and nats.go with its own dependencies (no bus, no observer, no nats-server, no platform
// package), on linux and darwin.
func TestDependencyClosures(t *testing.T) {
	for _, c := range closures {
		for _, goos := range []string{"linux", "darwin"} {
			cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./"+c.dir)
			cmd.Dir = filepath.Join("..", "..")
			cmd.Env = append(cmd.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go list -deps ./%s: %v\n%s", c.dir, err, out)
			}
			for _, dep := range strings.Fields(string(out)) {
				if !allows(c.allowed, dep) {
					t.Errorf("GOOS=%s: %s depends on %s: its closure may hold only %v and the standard library", goos, c.dir, dep, c.allowed)
				}
			}
		}
	}
}

// fuzzLine is one target of the Makefile's fuzz rule: a fuzz test and its package.
var fuzzLine = regexp.MustCompile(`-fuzz '\^(Fuzz\w+)\$\$' .* \./(\S+)/$`)

// TestMakeFuzzRunsEveryFuzzTest: every fuzz test in the repository is a target of `make fuzz`,
// named with the package that holds it (go test -fuzz over a package without it runs nothing and
// passes, as three did once their tests moved).
func TestMakeFuzzRunsEveryFuzzTest(t *testing.T) {
	root := filepath.Join("..", "..")
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, line := range strings.Split(string(makefile), "\n") {
		if m := fuzzLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			targets[m[2]+"."+m[1]] = true
		}
	}
	decl := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	found := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range decl.FindAllStringSubmatch(string(data), -1) {
			name := filepath.ToSlash(dir) + "." + m[1]
			found[name] = true
			if !targets[name] {
				t.Errorf("%s is not fuzzed by make fuzz: add it with ./%s/", m[1], filepath.ToSlash(dir))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for target := range targets {
		if !found[target] {
			t.Errorf("make fuzz names %s, which is no fuzz test of that package", target)
		}
	}
}
