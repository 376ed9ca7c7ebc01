package text_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// TestCell: a cell never holds what would lay its table out again (a tab,
// a newline) or act on the terminal, and a name longer than any object's
// key is cut in its middle, both ends kept.
func TestCell(t *testing.T) {
	long := "ns/" + strings.Repeat("k", 2000) + "-end"
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"default/w1", text.MaxName, "default/w1"},
		{"a\tb\nc\rd\x1b[31m", 0, `a\tb\nc\rd\x1b[31m`},
		// From 12 on, at least 8 of its end: a generated name's suffix,
		// as top has always kept it (one rule for get and top, CellIn).
		{"team-a/web-7d9f8-x2x7k", 12, "tea…f8-x2x7k"},
		{"team-a/web-7d9f8-x2x7k", 11, "team-…x2x7k"},
		{"team-a/web-7d9f8-x2x7k", 20, "team-a/we…d9f8-x2x7k"},
	} {
		if got := text.Cell(tt.in, tt.n); got != tt.want {
			t.Errorf("Cell(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	// CellIn in terminal cells: a wide rune counts two, and a newline in
	// a key is escaped before it is measured (top's KEY column split a
	// row at a key's newline).
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"demo/new\nline-key", 0, `demo/new\nline-key`},
		{"demo/new\nline-key-00012", 16, `demo/ne…ey-00012`},
		{"demo/wide-日本語-key-00012", 16, "demo/wi…ey-00012"},
	} {
		if got := text.CellIn(tt.in, tt.n, text.Cells); got != tt.want {
			t.Errorf("CellIn(%q, %d, Cells) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	got := text.Cell(long, text.MaxName)
	if n := utf8.RuneCountInString(got); n != text.MaxName || !strings.HasPrefix(got, "ns/kkk") || !strings.HasSuffix(got, "k-end") || !strings.Contains(got, "…") {
		t.Errorf("a 2,000-rune key came out %d runes: %.40q…", n, got)
	}
}
