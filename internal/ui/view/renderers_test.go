package view

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The table's renderers are functions of what they are handed, as k9s
// splits a model from its view: none is a method of the view (Top), and
// none reads through the session (the header is handed whether the view
// spans a fleet and the cap note; before, it asked the session itself, in
// the fleet's file it called into).
func TestRenderersReadNoView(t *testing.T) {
	fset := token.NewFileSet()
	for _, name := range []string{"header.go", "diagnosis.go", "table.go", "legend.go", "problem.go"} {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if n.Name == "Top" {
					t.Errorf("%s names Top: a renderer is handed what it draws (toprender.go), it does not read the view", fset.Position(n.Pos()))
				}
			case *ast.SelectorExpr:
				if n.Sel.Name == "Session" {
					t.Errorf("%s reads a session: a renderer draws what it is handed, it reads nothing", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}

// The header draws a fleet from what it is handed alone: no view and no
// session, only the read model's answer, Fleet and the cap note.
func TestHeaderDrawsWhatItIsHanded(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	c := &Common{Width: 100, Height: 30, Styles: widget.NewStyles(true), Keys: NewKeyMap(), SeenMarks: map[string]bool{},
		Opts: Options{Clock: func() time.Time { return now }, Refresh: time.Second}}
	m := &TopModel{C: c, Overview: &inspector.Overview{Replicas: []inspector.Replica{
		{Endpoint: "shop/orders-0", Workload: "orders", ServerTime: now},
		{Endpoint: "shop/billing-0", Workload: "billing", Err: errors.New("connection refused")},
	}}}
	h := TopHeader{C: c, M: m, Filter: &widget.Filter{}, Fleet: true, CapNote: "attached to 2 of 5 pods found"}
	got := ansi.Strip(strings.Join(h.Lines(), "\n"))
	for _, want := range []string{"workloads 2 · pods 2: 1 leading, 1 unreachable", "⚠ attached to 2 of 5 pods found", "shop/billing-0"} {
		if !strings.Contains(got, want) {
			t.Errorf("header handed a fleet lacks %q:\n%s", want, got)
		}
	}
	if h.Height() != HeaderLines+2 {
		t.Errorf("Height = %d, want %d (the fixed lines, the cap note and one pod out of reach)", h.Height(), HeaderLines+2)
	}
	h.Fleet, h.CapNote = false, ""
	if got := ansi.Strip(strings.Join(h.Lines(), "\n")); strings.Contains(got, "workloads") || strings.Contains(got, "⚠") {
		t.Errorf("header handed no fleet still draws one:\n%s", got)
	}
}

// An answer with no controller (an empty log followed as it grows) says so
// in the diagnosis and limiters lines; "…" is kept for a read under way,
// which it otherwise looked like forever.
func TestHeaderSaysNoControllerYet(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	c := &Common{Width: 120, Height: 30, Styles: widget.NewStyles(true), Keys: NewKeyMap(), SeenMarks: map[string]bool{},
		Opts: Options{Clock: func() time.Time { return now }, Refresh: time.Second}}
	m := &TopModel{C: c}
	h := TopHeader{C: c, M: m, Filter: &widget.Filter{}}
	if got := ansi.Strip(strings.Join(h.DiagnosisLines(), "\n") + "\n" + h.LimiterLine()); got != "diagnosis …\nlimiters …" {
		t.Errorf("before an answer: %q, want the read under way (…)", got)
	}
	m.Overview = &inspector.Overview{ServerTime: now}
	got := ansi.Strip(strings.Join(h.DiagnosisLines(), "\n") + "\n" + h.LimiterLine())
	if !strings.Contains(got, "diagnosis none yet: no controller has reported") || !strings.Contains(got, "limiters none yet") {
		t.Errorf("an answer with no controller: %q, want it to say none yet", got)
	}
}
