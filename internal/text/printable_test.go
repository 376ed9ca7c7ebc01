package text

import (
	"bytes"
	"testing"
)

// hostile is what an error message from the cluster can hold: an OSC that
// sets the title (ended by BEL), a CSI that clears the screen and homes the
// cursor, a NUL, an 8-bit CSI (U+009B), a raw 0x9b byte, a carriage return
// that overwrites the line, a right-to-left override.
const hostile = "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[H boom\x00 \u009b31m \x9b \rover \u202eevil"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"connection refused": "connection refused",
		"tab\tand\nnewline":  "tab\tand\nnewline",
		"ünïcödé ✓ 日本":       "ünïcödé ✓ 日本",
		hostile:              `\x1b]0;PWNED-TITLE\a\x1b[2J\x1b[H boom\x00 \u009b31m \x9b \rover \u202eevil`,
		"\x7f\x1b":           `\x7f\x1b`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
	// Idempotent: what it returns is printable already.
	if once := Printable(hostile); Printable(once) != once {
		t.Errorf("Printable is not idempotent on %q", once)
	}
}

// A character split across two writes is escaped whole, and one left
// incomplete is escaped when what follows shows it was not UTF-8.
func TestPrintableWriterSplitsRunes(t *testing.T) {
	var buf bytes.Buffer
	w := PrintableWriter(&buf)
	c1 := "\u009b" // two bytes: c2 9b
	for _, p := range []string{"a" + c1[:1], c1[1:] + "b\x1b", "[2J\xe6", "x\n"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if e, a := `a\u009bb\x1b[2J\xe6x`+"\n", buf.String(); e != a {
		t.Errorf("written %q, want %q", a, e)
	}
}
