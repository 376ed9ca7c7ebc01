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
		{"team-a/web-7d9f8-x2x7k", 12, "team-…-x2x7k"},
	} {
		if got := text.Cell(tt.in, tt.n); got != tt.want {
			t.Errorf("Cell(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	got := text.Cell(long, text.MaxName)
	if n := utf8.RuneCountInString(got); n != text.MaxName || !strings.HasPrefix(got, "ns/kkk") || !strings.HasSuffix(got, "k-end") || !strings.Contains(got, "…") {
		t.Errorf("a 2,000-rune key came out %d runes: %.40q…", n, got)
	}
}
