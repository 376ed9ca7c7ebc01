package text

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// everyControl is every character a terminal acts on that Printable
// escapes, one of each: the C0 controls but tab and newline, DEL, the C1
// controls (U+0080–U+009F) and the bidirectional controls (the embeddings
// and overrides U+202A–U+202E, the isolates U+2066–U+2069, the marks
// U+200E, U+200F and U+061C).
func everyControl() []rune {
	var rs []rune
	for r := rune(0); r < 0x20; r++ {
		if r != '\t' && r != '\n' {
			rs = append(rs, r)
		}
	}
	rs = append(rs, 0x7f)
	for r := rune(0x80); r <= 0x9f; r++ {
		rs = append(rs, r)
	}
	for r := rune(0x202a); r <= 0x202e; r++ {
		rs = append(rs, r)
	}
	for r := rune(0x2066); r <= 0x2069; r++ {
		rs = append(rs, r)
	}
	return append(rs, 0x200e, 0x200f, 0x061c)
}

// TestEveryControlEscaped: each control alone, inside a word, and all of
// them at once, through Printable, PrintableWriter, PrintableStyled,
// OneLine and Wrap (of the escaped text): none comes out raw, each as the
// Go escape that reads it back.
func TestEveryControlEscaped(t *testing.T) {
	raw := func(out string) (rune, bool) {
		for _, r := range out {
			for _, c := range everyControl() {
				if r == c {
					return r, true
				}
			}
		}
		return 0, false
	}
	var all strings.Builder
	for _, r := range everyControl() {
		in := "a" + string(r) + "b"
		all.WriteString(in)
		want := "a" + strings.Trim(fmt.Sprintf("%+q", string(r)), `"`) + "b"
		if r == 0x07 {
			want = `a\ab` // strconv's name for BEL
		}
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
		if !utf8.ValidString(Printable(in)) {
			t.Errorf("Printable(%q) is not UTF-8", in)
		}
	}
	in := all.String()
	var w strings.Builder
	if _, err := PrintableWriter(&w).Write([]byte(in)); err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{
		"Printable":       Printable(in),
		"PrintableWriter": w.String(),
		"Wrap":            strings.Join(Wrap(Printable(in), 20), "\n"), // it draws what it is given: escaped first, as its doc says
		"OneLine":         OneLine(in, 1000),
		"PrintableStyled": PrintableStyled(in),
	}
	for name, out := range outs {
		if r, ok := raw(out); ok {
			t.Errorf("%s let %U through raw:\n%q", name, r, out)
		}
	}
}
