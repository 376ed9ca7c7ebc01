package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootNamesNoViewsAnswer: the views take their answers one way
// (view.Receiver); the root has no case for a particular view's answer,
// nor writes a view's in-flight state on a pause. A new view is then its
// file and its registration line (TestRegisteredView), nothing here.
func TestRootNamesNoViewsAnswer(t *testing.T) {
	answers := []string{"view.RefreshedMsg", "view.DetailFetchedMsg", "view.GroupsFetchedMsg", "view.ForFetchedMsg",
		"view.FleetReadMsg", "view.ChainAskedMsg", "view.DetailChainMsg", ".Inflight = ", ".Loading = ", ".GroupsAt = "}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range answers {
			if strings.Contains(string(b), a) {
				t.Errorf("%s names %s: a view's answer goes to the view (view.Receiver), not through a case of the root", f, a)
			}
		}
	}
}

// TestRootNamesNoView: a view added is its file in package view and one
// registration line (layer.go's table); the root has no case for a
// particular view. Outside that table no file of the root names a view's
// type (view.Detail), its constructor (view.NewDetail) or the mode it is
// registered with (modeDetail): it asks a view for a role by interface
// (view/roles.go). The view types are read from package view's source:
// the types with a Render and an OnKey, so that a view added is covered.
func TestRootNamesNoView(t *testing.T) {
	views := viewTypes(t)
	if len(views) < 8 {
		t.Fatalf("found %d view types in package view (%v): the test no longer finds them", len(views), views)
	}
	fset := token.NewFileSet()
	parsed := parseSources(t, fset, "*.go")
	// The modes the table registers, from its declaration.
	modes := map[string]bool{}
	var table *ast.GenDecl
	for _, f := range parsed {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR || !registers(g) {
				continue
			}
			if table != nil {
				t.Errorf("%s: a second table of views registered; the root has one", fset.Position(g.Pos()))
			}
			table = g
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					modes[n.Name] = true
				}
			}
		}
	}
	if table == nil {
		t.Fatal("no var block calling registerView: where are the views registered?")
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			if n == table {
				return false // the one place a view is named
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "view" && (views[n.Sel.Name] || views[strings.TrimPrefix(n.Sel.Name, "New")]) {
					t.Errorf("%s names view.%s: the root asks a view for a role (view/roles.go), the views open each other with intents", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.Ident:
				if modes[n.Name] && n.Name != "_" {
					t.Errorf("%s names %s, a view's mode: only the table of views (layer.go) names one", fset.Position(n.Pos()), n.Name)
				}
			}
			return true
		})
	}
}

// registers reports whether g declares modes from registerView calls.
func registers(g *ast.GenDecl) bool {
	for _, s := range g.Specs {
		for _, v := range s.(*ast.ValueSpec).Values {
			if c, ok := v.(*ast.CallExpr); ok {
				if ix, ok := c.Fun.(*ast.IndexExpr); ok {
					if id, ok := ix.X.(*ast.Ident); ok && id.Name == "registerView" {
						return true
					}
				}
			}
		}
	}
	return false
}

// viewTypes are the types of package view with both a Render and an OnKey
// method: its views.
func viewTypes(t *testing.T) map[string]bool {
	t.Helper()
	methods := map[string]map[string]bool{}
	for _, f := range parseSources(t, token.NewFileSet(), "../internal/ui/view/*.go") {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			typ := fn.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				if methods[id.Name] == nil {
					methods[id.Name] = map[string]bool{}
				}
				methods[id.Name][fn.Name.Name] = true
			}
		}
	}
	out := map[string]bool{}
	for typ, ms := range methods {
		if ms["Render"] && ms["OnKey"] {
			out[typ] = true
		}
	}
	return out
}

// parseSources parses the files glob matches, but tests, by name.
func parseSources(t *testing.T, fset *token.FileSet, glob string) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob(glob)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = f
	}
	return out
}
