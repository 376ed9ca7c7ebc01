package text

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text from the cluster or a log (object names, error messages, reasons,
// a log's lines) is the controller's, or an attacker's: an error message
// can hold ESC, OSC or CSI sequences that set the terminal's title, clear
// its screen or move its cursor. Everything that reaches a terminal passes
// through Printable (one value) or PrintableWriter (a printer's output), as
// kubectl's printers pass theirs through printers.EscapeTerminal. The escape
// is Go's, as describe's `Last error: %q` has always shown it: "\x1b",
// "\x00", "\u009b", so what was escaped can be read back.

// Printable is s with every character a terminal would act on written as a
// Go escape: C0 controls but tab and newline (those the printer lays out
// with; OneLine turns them into spaces), DEL, the C1 controls (U+0080–U+009F:
// U+009B is a CSI on its own), the bidirectional overrides and isolates
// (they reorder what is shown), and bytes that are not UTF-8 (a raw 0x9b is
// a CSI to an 8-bit terminal).
func Printable(s string) string { return escape(s, nil) }

// escape is s with every character Printable escapes written as a Go
// escape, except the sequences pass lets through (pass is the length of
// the one s starts with, 0 when none; nil lets none through).
func escape(s string, pass func(string) int) string {
	i := unsafeAt(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		if n := passLen(pass, s); n > 0 {
			b.WriteString(s[:n])
			s = s[n:]
		} else {
			r, size := utf8.DecodeRuneInString(s)
			writeEscape(&b, r, s[:size])
			s = s[size:]
		}
		i = unsafeAt(s)
	}
	b.WriteString(s)
	return b.String()
}

// passLen is pass(s), or 0 when pass is nil.
func passLen(pass func(string) int, s string) int {
	if pass == nil {
		return 0
	}
	return pass(s)
}

// unsafeAt is the index of the first character of s Printable escapes, or
// -1.
func unsafeAt(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeByte(c) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, size) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeByte reports whether an ASCII byte is a control Printable escapes.
func unsafeByte(c byte) bool {
	return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f
}

// unsafeRune reports whether a decoded non-ASCII rune is escaped: not UTF-8
// (RuneError of size 1), C1, or a bidirectional control.
func unsafeRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// writeEscape writes the Go escape of r (raw, its bytes in s).
func writeEscape(b *strings.Builder, r rune, raw string) {
	if r == utf8.RuneError && len(raw) == 1 {
		b.WriteString(`\x`)
		b.WriteString(strconv.FormatUint(uint64(raw[0])|0x100, 16)[1:])
		return
	}
	q := strconv.QuoteRuneToASCII(r) // '\x1b', '\u009b', '\n'
	b.WriteString(q[1 : len(q)-1])
}

// PrintableWriter is w with everything written to it passed through
// Printable: what a printer writes its text to, so that no field it prints
// can be forgotten. A character split across two writes is escaped whole
// (the writer holds an incomplete UTF-8 sequence for the next write).
func PrintableWriter(w io.Writer) io.Writer {
	if pw, ok := w.(*printableWriter); ok {
		return pw
	}
	return &printableWriter{w: w}
}

type printableWriter struct {
	w       io.Writer
	pending []byte // the start of a UTF-8 sequence the last write ended in
}

// Unwrap is the writer written to: a caller asking whether it is a terminal
// asks of that one.
func (pw *printableWriter) Unwrap() io.Writer { return pw.w }

func (pw *printableWriter) Write(p []byte) (int, error) {
	s := string(pw.pending) + string(p)
	pw.pending = pw.pending[:0]
	// Hold an incomplete sequence at the end: the next write may finish it.
	if n := incompleteTail(s); n > 0 {
		pw.pending = append(pw.pending, s[len(s)-n:]...)
		s = s[:len(s)-n]
	}
	if _, err := io.WriteString(pw.w, Printable(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// incompleteTail is how many bytes at the end of s start a UTF-8 sequence
// that s does not finish (0 when none).
func incompleteTail(s string) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(s); n++ {
		c := s[len(s)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRuneInString(s[len(s)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
