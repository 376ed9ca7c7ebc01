package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLogShapeLines: the first and last lines are found whatever the
// reads' sizes (one byte at a time, or past the sniffed start), and a last
// line without its newline is the last.
func TestLogShapeLines(t *testing.T) {
	long := strings.Repeat("x\n", sniffSpan/2) + "x" // the middle, past the sniffed start
	for _, tc := range []struct{ log, first, last string }{
		{"a 1\nb 2\nc 3\n", "a 1", "c 3"},
		{"a 1\n" + long + "\nz 9\n", "a 1", "z 9"},
		{"a 1\n" + long + "\nz 9", "a 1", "z 9"},
	} {
		for _, r := range []io.Reader{strings.NewReader(tc.log), iotest.OneByteReader(strings.NewReader(tc.log)), iotest.HalfReader(strings.NewReader(tc.log))} {
			var s logShape
			if _, err := io.Copy(io.Discard, shapeReader(r, &s)); err != nil {
				t.Fatal(err)
			}
			last := s.last
			if len(bytes.TrimSpace(s.tail)) > 0 {
				last = s.tail
			}
			if string(s.first) != tc.first || string(last) != tc.last {
				t.Errorf("%T: first %.20q, last %.20q; want %q, %q", r, s.first, last, tc.first, tc.last)
			}
		}
	}
}
