package text

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrap: the one wrap, for the CLI's columns and the TUI's panes alike:
// at spaces, names with hyphens whole, a word wider than the room broken,
// measured in cells (a wide rune is two), and no line wider than asked.
func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want []string
	}{
		{"a bb ccc", 4, []string{"a bb", "ccc"}},
		{"abcdefgh x", 3, []string{"abc", "def", "gh", "x"}},
		{"", 5, []string{""}},
		{"by kubectl-client-side-apply now", 26, []string{"by", "kubectl-client-side-apply", "now"}},
		{"one\ntwo three", 5, []string{"one", "two", "three"}},
		{"日本語 日本語", 7, []string{"日本語", "日本語"}}, // 6 cells each: two do not fit in 7
		{"pods=1, used: pods=0", 9, []string{"pods=1,", "used:", "pods=0"}},
		// A command in backticks is one word while it fits: pasted, half
		// of it would run (forget without its --requeue).
		{"then run `kubectl backoff kick rs/web` now", 30, []string{"then run", "`kubectl backoff kick rs/web`", "now"}},
		{"a `b c` d `e f", 5, []string{"a", "`b c`", "d `e", "f"}}, // an unpaired backtick quotes nothing
	} {
		got := Wrap(tc.s, tc.w)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q; want %q", tc.s, tc.w, got, tc.want)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > tc.w {
				t.Errorf("Wrap(%q, %d): %q is %d cells wide", tc.s, tc.w, l, ansi.StringWidth(l))
			}
		}
	}
	if got := Wrap("x", 0); got != nil {
		t.Errorf("Wrap into no room = %q; want nothing", got)
	}
}

// TestWrapOneLineEscapes: what the CLI wraps from the cluster passes
// through OneLine first; the escapes survive the wrap whole.
func TestWrapOneLineEscapes(t *testing.T) {
	got := strings.Join(Wrap(OneLine("bell\x07 here \u202eevil", 0), 30), "|")
	if want := `bell\a here \u202eevil`; got != want {
		t.Errorf("Wrap(OneLine(hostile)) = %q; want %q", got, want)
	}
}

// TestWrapIndent: continuation lines are indented, and cut from the text
// itself (a break after "--" adds no space).
func TestWrapIndent(t *testing.T) {
	got := WrapIndent("retry now with kubectl backoff forget --requeue demo/x", 24, 4)
	for i, l := range got {
		if ansi.StringWidth(l) > 24 || (i > 0 && !strings.HasPrefix(l, "    ")) {
			t.Errorf("line %d = %q", i, l)
		}
	}
	if joined := strings.Join(strings.Fields(strings.Join(got, " ")), " "); joined != "retry now with kubectl backoff forget --requeue demo/x" {
		t.Errorf("WrapIndent lost text: %q", got)
	}
}
