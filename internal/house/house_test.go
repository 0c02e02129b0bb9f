// Package house holds the house rules that a reader of the code relies on,
// as tests: rooms a reader can hold (no file of code over 1,000 lines, few
// functions over 100, an engine root that stays the shared domain) and
// arrows that point inward (no face imports another, the console binary
// does not import the desktop face).
package house

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Limits of issue 22.
const (
	maxFileLines       = 1000
	maxLongFunctions   = 10
	longFunctionLines  = 100
	maxEngineRootLines = 2500
)

// root is the repository's root, from this package's folder.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// goFiles lists the repository's Go files that are not tests, generated
// code or npm's.
func goFiles(t *testing.T) []string {
	t.Helper()
	r := root(t)
	var out []string
	err := filepath.WalkDir(r, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "testdata", "dist", "wailsjs":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func generated(src []byte) bool {
	head := src[:min(len(src), 400)]
	return strings.Contains(string(head), "Code generated") && strings.Contains(string(head), "DO NOT EDIT")
}

func TestRooms(t *testing.T) {
	r := root(t)
	fset := token.NewFileSet()
	type long struct {
		name  string
		lines int
	}
	var longs []long
	engineRoot := 0
	for _, p := range goFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if generated(src) {
			continue
		}
		rel, _ := filepath.Rel(r, p)
		lines := strings.Count(string(src), "\n")
		if lines > maxFileLines {
			t.Errorf("%s has %d lines; a file of code has at most %d: split it by what it does", rel, lines, maxFileLines)
		}
		if filepath.Dir(rel) == "engine" {
			engineRoot += lines
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n > longFunctionLines {
				name := fn.Name.Name
				if fn.Recv != nil && len(fn.Recv.List) > 0 {
					name = recvName(fn.Recv.List[0].Type) + "." + name
				}
				longs = append(longs, long{rel + ": " + name, n})
			}
		}
	}
	sort.Slice(longs, func(i, j int) bool { return longs[i].lines > longs[j].lines })
	var list []string
	for _, l := range longs {
		list = append(list, l.name+" ("+itoa(l.lines)+")")
	}
	t.Logf("engine root: %d lines; functions over %d lines: %d\n  %s", engineRoot, longFunctionLines, len(longs), strings.Join(list, "\n  "))
	if len(longs) > maxLongFunctions {
		t.Errorf("%d functions have more than %d lines (at most %d may): %s", len(longs), longFunctionLines, maxLongFunctions, strings.Join(list, ", "))
	}
	if engineRoot > maxEngineRootLines {
		t.Errorf("the engine's root package has %d lines, at most %d: it keeps the domain every face shares; move a use case or a mechanism into a package of its own", engineRoot, maxEngineRootLines)
	}
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	}
	return "?"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// TestArrows: the console binary does not import the desktop face, and no
// face imports another (they meet in the engine).
func TestArrows(t *testing.T) {
	if testing.Short() {
		t.Skip("go list over the module (-short)")
	}
	out, err := exec.Command("go", "list", "-deps", "querent/cmd/querent").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "querent/app/desktop") {
			t.Errorf("the console binary imports %s: the composition root belongs outside the desktop face", dep)
		}
	}
}
