package ax

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

const testPID = 42

// fakeDesktop plays the frontmost app and the two ways of changing it.
type fakeDesktop struct {
	front          int
	activateOK     bool  // activateWithOptions: reports success
	activateWorks  bool  // and brings the app forward
	frontmostErr   error // what setting AXFrontmost answers
	frontmostWorks bool  // setting it brings the app forward
	lateBy         int   // looks at the front before the app shows there

	activations, frontmostSets int
	pending                    bool
}

func (d *fakeDesktop) frontPID() int {
	if d.pending {
		if d.lateBy > 0 {
			d.lateBy--
		} else {
			d.front, d.pending = testPID, false
		}
	}
	return d.front
}

func (d *fakeDesktop) raiser() frontRaiser {
	return frontRaiser{
		frontPID: d.frontPID,
		activate: func(pid int) bool {
			d.activations++
			d.pending = d.pending || d.activateOK && d.activateWorks && pid == testPID
			return d.activateOK
		},
		setFrontmost: func(pid int) error {
			d.frontmostSets++
			d.pending = d.pending || d.frontmostWorks && pid == testPID
			return d.frontmostErr
		},
		activateWait: 30 * time.Millisecond, frontWait: 30 * time.Millisecond, poll: time.Millisecond,
	}
}

func TestRaise(t *testing.T) {
	noApp := model.Errorf(model.CodeAppNotFound, "Run axbus apps.", "no running app has pid %d", testPID)
	for _, tc := range []struct {
		name                      string
		desk                      fakeDesktop
		code                      model.Code
		activations, frontmostSet int
	}{
		{name: "already in front", desk: fakeDesktop{front: testPID}},
		{name: "activation works", desk: fakeDesktop{activateOK: true, activateWorks: true}, activations: 1},
		{name: "activation works after a while", desk: fakeDesktop{activateOK: true, activateWorks: true, lateBy: 5}, activations: 1},
		// macOS 14: the request is accepted and ignored.
		{name: "activation ignored, AXFrontmost works", desk: fakeDesktop{activateOK: true, frontmostWorks: true},
			activations: 1, frontmostSet: 1},
		{name: "activation refused, AXFrontmost works", desk: fakeDesktop{frontmostWorks: true}, activations: 1, frontmostSet: 1},
		// AX may report failure although the call took effect.
		{name: "AXFrontmost reports busy but works", desk: fakeDesktop{frontmostWorks: true, frontmostErr: AXCannotComplete.Err("busy")},
			activations: 1, frontmostSet: 1},
		{name: "nothing works", desk: fakeDesktop{activateOK: true, frontmostErr: AXFailure.Err("no")},
			code: model.CodeActionFailed, activations: 1, frontmostSet: 1},
		{name: "nothing works, no error said so", desk: fakeDesktop{}, code: model.CodeActionFailed, activations: 1, frontmostSet: 1},
		{name: "the app exited", desk: fakeDesktop{frontmostErr: noApp}, code: model.CodeAppNotFound, activations: 1, frontmostSet: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.desk
			err := d.raiser().raise(context.Background(), testPID)
			if model.CodeOf(err) != tc.code {
				t.Fatalf("raise = %v, want code %q", err, tc.code)
			}
			if d.activations != tc.activations || d.frontmostSets != tc.frontmostSet {
				t.Errorf("%d activations and %d AXFrontmost sets, want %d and %d",
					d.activations, d.frontmostSets, tc.activations, tc.frontmostSet)
			}
			if tc.code == model.CodeActionFailed && !strings.Contains(err.Error(), "did not come to the front") {
				t.Errorf("error %q does not say the app did not come to the front", err)
			}
		})
	}
}

func TestRaiseRefusedActivationDoesNotWait(t *testing.T) {
	d := fakeDesktop{frontmostWorks: true}
	r := d.raiser()
	r.activateWait = time.Hour
	start := time.Now()
	if err := r.raise(context.Background(), testPID); err != nil {
		t.Fatal(err)
	}
	if e := time.Since(start); e > time.Minute {
		t.Errorf("a refused activation was waited for (%v)", e)
	}
}

func TestRaiseEndsWithContext(t *testing.T) {
	d := fakeDesktop{activateOK: true}
	r := d.raiser()
	r.activateWait, r.frontWait = time.Hour, time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := r.raise(ctx, testPID); model.CodeOf(err) != model.CodeTimeout {
		t.Errorf("raise = %v, want TIMEOUT", err)
	}
}

func TestRaiseFailureNamesTheAXError(t *testing.T) {
	d := fakeDesktop{frontmostErr: AXAPIDisabled.Err("not trusted")}
	err := model.AsError(d.raiser().raise(context.Background(), testPID))
	if err == nil || err.Details["frontmost_error"] == nil || err.Details["pid"] != testPID {
		t.Errorf("raise = %+v, want the pid and AXFrontmost's error in its details", err)
	}
}

// Only physical input, and a window raise that asks for it, bring an app to the front: an AX
// call (Perform, SetAttribute, a chain's AX steps) reaches its element whichever app is in
// front. So raise is called from Backend.Input and ChangeWindow's raiseWindow alone, and
// activation and AXFrontmost are set from raise alone.
func TestOnlyPhysicalInputRaisesApps(t *testing.T) {
	allowed := map[string]string{"raise": "Input raiseWindow", "activate": "raise", "setFrontmost": "raise"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := map[string]int{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var name string
				switch fn := call.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				if want, ok := allowed[name]; ok {
					found[name]++
					if !slices.Contains(strings.Fields(want), fd.Name.Name) {
						t.Errorf("%s: %s calls %s; only %s may", fset.Position(call.Pos()), fd.Name.Name, name, want)
					}
				}
				return true
			})
		}
	}
	for name := range allowed {
		if found[name] == 0 {
			t.Errorf("no call of %s found: the test no longer sees what it guards", name)
		}
	}
}
