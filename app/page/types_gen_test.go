package page_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"querent/app/page"
	"querent/app/page/tsgen"
)

// TestTypesGenerated fails when frontend/src/api/types.gen.ts is not what
// the generator writes from the Go types today.
func TestTypesGenerated(t *testing.T) {
	root, err := tsgen.Root()
	if err != nil {
		t.Fatal(err)
	}
	want, err := tsgen.Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(tsgen.Output)))
	if err != nil {
		t.Fatalf("%v: run make generate", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s is stale: run make generate (line %d is %q, the Go types say %q)", tsgen.Output, i+1, g, w)
		}
	}
}

// TestPageEventsListed checks page.PageEvents against the code: every
// event sent in app/page, app/web and main.go is in the table, and every
// event in the table is sent somewhere.
func TestPageEventsListed(t *testing.T) {
	root, err := tsgen.Root()
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, pattern := range []string{"app/page/*.go", "app/web/*.go", "*.go"} {
		names, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	// The string constants, as package.Name.
	consts := map[string]ast.Expr{}
	for _, f := range files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							consts[f.Name.Name+"."+n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	var resolve func(pkg string, e ast.Expr) (string, bool)
	resolve = func(pkg string, e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		case *ast.Ident:
			if v, ok := consts[pkg+"."+e.Name]; ok {
				return resolve(pkg, v)
			}
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				if v, ok := consts[x.Name+"."+e.Sel.Name]; ok {
					return resolve(x.Name, v)
				}
			}
		}
		return "", false
	}

	sent := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			params := map[string]bool{}
			for _, p := range fd.Type.Params.List {
				for _, n := range p.Names {
					params[n.Name] = true
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var fn string
				switch f := call.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				arg := -1
				switch fn {
				case "emit", "Emit":
					arg = 0
				case "EventsEmit":
					arg = 1
				}
				if arg < 0 || len(call.Args) <= arg {
					return true
				}
				if id, ok := call.Args[arg].(*ast.Ident); ok && params[id.Name] {
					return true // passes on its caller's event
				}
				name, ok := resolve(f.Name.Name, call.Args[arg])
				if !ok {
					t.Errorf("%s: cannot tell which event this sends: name it with a constant of page.PageEvents", fset.Position(call.Pos()))
					return true
				}
				sent[name] = true
				return true
			})
		}
	}
	listed := map[string]bool{}
	for _, e := range page.PageEvents {
		listed[e.Name] = true
		if !sent[e.Name] {
			t.Errorf("the event %s is in page.PageEvents but nothing sends it", e.Name)
		}
	}
	var missing []string
	for name := range sent {
		if !listed[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		t.Errorf("the event %s is sent but not in page.PageEvents: add it with its payload's type, then run make generate", name)
	}
}
