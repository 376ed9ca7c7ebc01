package text

import (
	"testing"
	"unicode/utf8"
)

// FuzzPrintable: Printable's output holds no character it escapes, is
// valid UTF-8, and is its own escape (escaping twice changes nothing);
// PrintableStyled's holds none but the ESC of an SGR sequence.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;T\x07", "\x1b[31m", "\u202e", "\x9b", "a\x00b", "\xff\xfe", "\x1b[", "\x1b[1;2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		if i := unsafeAt(p); i >= 0 {
			t.Fatalf("Printable(%q) = %q: unsafe at %d", s, p, i)
		}
		if !utf8.ValidString(p) {
			t.Fatalf("Printable(%q) = %q: not UTF-8", s, p)
		}
		if Printable(p) != p {
			t.Fatalf("Printable is not its own escape on %q", s)
		}
		st := PrintableStyled(s)
		for rest := st; ; {
			i := unsafeAt(rest)
			if i < 0 {
				break
			}
			n := sgrLen(rest[i:])
			if n == 0 {
				t.Fatalf("PrintableStyled(%q) = %q: unsafe at %d", s, st, i)
			}
			rest = rest[i+n:]
		}
	})
}
