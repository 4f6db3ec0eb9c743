package ax

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The macOS backend calls C through purego so that the module builds and vets from any OS with
// CGO_ENABLED=0. These tests read the module's source (every build tag) to keep it that way,
// and to keep purego's C callbacks, which are never freed and limited per process, a fixed set.

const (
	puregoPath = "github.com/ebitengine/purego"
	objcPath   = "github.com/ebitengine/purego/objc"
)

// moduleFile is one parsed Go file of the module.
type moduleFile struct {
	path string
	file *ast.File
}

// parseModule parses every Go file of the module, nested modules, testdata and hidden
// directories left out.
func parseModule(t *testing.T) (*token.FileSet, []moduleFile) {
	t.Helper()
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatal("no go.mod above the package")
		}
		root = parent
	}
	fset := token.NewFileSet()
	var files []moduleFile
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, moduleFile{path: path, file: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d Go files under %s", len(files), root)
	}
	return fset, files
}

// importName is the name file uses for the package at path, "" when it does not import it.
func importName(f *ast.File, path, base string) string {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == path {
			if im.Name != nil {
				return im.Name.Name
			}
			return base
		}
	}
	return ""
}

func TestNoCgo(t *testing.T) {
	fset, files := parseModule(t)
	for _, mf := range files {
		for _, im := range mf.file.Imports {
			if im.Path.Value == `"C"` {
				t.Errorf(`%s imports "C": the module must build with CGO_ENABLED=0 (use purego)`, fset.Position(im.Pos()))
			}
		}
	}
}

// callbackSite is a call that makes a C callback.
type callbackSite struct {
	pos    token.Position
	fn     string // the enclosing function declaration
	inOnce bool   // inside a function literal passed to a Do method (sync.Once)
}

func TestCallbacksAreAFixedSet(t *testing.T) {
	fset, files := parseModule(t)
	var sites []callbackSite
	declared := map[string]int64{} // callbackCount, by file
	for _, mf := range files {
		if c, ok := constInt(mf.file, "callbackCount"); ok {
			declared[mf.path] = c
		}
		purego := importName(mf.file, puregoPath, "purego")
		if objc := importName(mf.file, objcPath, "objc"); objc != "" {
			// These make a callback per call.
			for _, name := range []string{"NewBlock", "NewIMP", "RegisterClass"} {
				for _, pos := range selectorCalls(mf.file, objc, name) {
					t.Errorf("%s: objc.%s makes a C callback per call; route through initCallbacks", fset.Position(pos), name)
				}
			}
		}
		if purego == "" {
			continue
		}
		checkNoFuncParams(t, fset, mf.file)
		for _, decl := range mf.file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			sites = append(sites, newCallbackSites(fset, fd, purego)...)
		}
		// A NewCallback outside any function (a package-level var) runs at init: count it too.
		for _, decl := range mf.file.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok {
				for _, pos := range selectorCalls(gd, purego, "NewCallback") {
					sites = append(sites, callbackSite{pos: fset.Position(pos)})
				}
			}
		}
	}
	if len(declared) != 1 {
		t.Fatalf("callbackCount is declared in %d files (%v), want exactly one", len(declared), declared)
	}
	var want int64
	for _, c := range declared {
		want = c
	}
	for _, s := range sites {
		if s.fn != "initCallbacks" || !s.inOnce {
			t.Errorf("%s: purego.NewCallback outside the sync.Once of initCallbacks (in %q): callbacks are never freed", s.pos, s.fn)
		}
	}
	if int64(len(sites)) != want || want == 0 {
		t.Errorf("%d purego.NewCallback call sites, callbackCount says %d", len(sites), want)
	}
}

// newCallbackSites lists the purego.NewCallback calls in fd.
func newCallbackSites(fset *token.FileSet, fd *ast.FuncDecl, purego string) []callbackSite {
	var out []callbackSite
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if isSelectorCall(n, purego, "NewCallback") {
			out = append(out, callbackSite{pos: fset.Position(n.Pos()), fn: fd.Name.Name, inOnce: insideDo(stack)})
		}
		return true
	})
	return out
}

// insideDo reports whether the innermost call of the stack is within a function literal passed
// to a method named Do.
func insideDo(stack []ast.Node) bool {
	for i := len(stack) - 2; i > 0; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Do" && len(call.Args) == 1 && call.Args[0] == lit
	}
	return false
}

func isSelectorCall(n ast.Node, pkg, name string) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == name
}

func selectorCalls(n ast.Node, pkg, name string) []token.Pos {
	var out []token.Pos
	ast.Inspect(n, func(n ast.Node) bool {
		if isSelectorCall(n, pkg, name) {
			out = append(out, n.Pos())
		}
		return true
	})
	return out
}

// checkNoFuncParams fails on a function variable with a func-typed parameter: bound with
// purego.RegisterFunc, it would make a new C callback on every call.
func checkNoFuncParams(t *testing.T, fset *token.FileSet, f *ast.File) {
	t.Helper()
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			ft, ok := vs.Type.(*ast.FuncType)
			if !ok || ft.Params == nil {
				continue
			}
			for _, p := range ft.Params.List {
				if _, isFunc := p.Type.(*ast.FuncType); isFunc {
					t.Errorf("%s: C function %s takes a Go func: purego would make a callback per call; take a uintptr",
						fset.Position(p.Pos()), vs.Names[0].Name)
				}
			}
		}
	}
}

// constInt is the value of the integer constant name declared in f.
func constInt(f *ast.File, name string) (int64, bool) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name != name || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.INT {
					return 0, false
				}
				return constant.Int64Val(constant.MakeFromLiteral(lit.Value, lit.Kind, 0))
			}
		}
	}
	return 0, false
}
