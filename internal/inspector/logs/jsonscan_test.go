package logs

import (
	"strings"
	"testing"
)

// TestSkipString: skipString, which jumps from quote to quote, ends a
// string where a walk byte by byte does: at the first quote after an even
// run of backslashes, short strings and long ones.
func TestSkipString(t *testing.T) {
	const short = 16 // longer than most keys
	long := strings.Repeat("x", short)
	for _, tc := range []string{
		`""`, `"a"`, `"level"`, `"controllerGroup"`, `"` + long + `"`, `"` + long + `x"`,
		`"a\"b"`, `"a\\"`, `"a\\\"b"`, `"\\\\"`, `"` + long[:short-2] + `\"x"`,
		`"` + long[:short-1] + `\"x"`, `"` + long + `\"x"`, `"` + long + `\\"`,
		`"ab`, `"a\"`, `"` + long, `"` + long + `\"`,
	} {
		for _, rest := range []string{"", `,"b":"c"}`} {
			b := []byte(tc + rest)
			wantEnd, wantOK := skipStringByByte(b, 0)
			if end, ok := skipString(b, 0); end != wantEnd || ok != wantOK {
				t.Errorf("skipString(%s) = %d, %v; want %d, %v", b, end, ok, wantEnd, wantOK)
			}
		}
	}
}

// skipStringByByte is skipString as a walk byte by byte.
func skipStringByByte(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(b), false
}

// TestTrimEOL: trimEOL is bytes.TrimRight(line, "\r\n").
func TestTrimEOL(t *testing.T) {
	for _, tc := range []string{"", "\n", "\r\n", "a", "a\n", "a\r\n", "a\n\r\n", "a\rb\n", "\r", "a \n"} {
		if got, want := string(trimEOL([]byte(tc))), strings.TrimRight(tc, "\r\n"); got != want {
			t.Errorf("trimEOL(%q) = %q, want %q", tc, got, want)
		}
	}
}
