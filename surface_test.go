package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoomsExportOnlyWhatIsUsed keeps the card's rooms (inspector, ui,
// demo) small: every function, variable and constant a room exports is
// called from another package of this module, or it is unexported. Types
// are not checked: a caller holding a room's value needs its type.
func TestRoomsExportOnlyWhatIsUsed(t *testing.T) {
	others := map[string]string{} // dir → the text of every other package's files
	var all []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			all = append(all, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, room := range rooms {
		var b strings.Builder
		for _, f := range all {
			if filepath.Dir(f) != room {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(src)
			}
		}
		others[room] = b.String()
	}
	for _, room := range rooms {
		pkg := filepath.Base(room)
		for _, name := range exportedValues(t, room) {
			if !strings.Contains(others[room], pkg+"."+name) {
				t.Errorf("%s exports %s, which no other package calls: unexport it, or move it where it is used", room, name)
			}
		}
		if _, err := os.Stat(filepath.Join(room, "doc.go")); err != nil {
			t.Errorf("%s has no doc.go: its first example is how it is used", room)
		}
	}
}

// exportedValues is the exported functions, variables and constants
// declared in dir's non-test files (methods are not: an interface may ask
// for them).
func exportedValues(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if v, ok := s.(*ast.ValueSpec); ok {
						for _, n := range v.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return names
}
