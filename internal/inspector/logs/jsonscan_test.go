package logs

import (
	"math/rand"
	"slices"
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

// TestEachMemberIsByByte: eachMember, which finds a string's end a word
// at a time (quote16) and its spaces by one comparison, visits the members
// and stops where a walk byte by byte does, on random objects that are
// whole, cut short, escaped and malformed, and skipString ends every
// string where skipStringByByte does.
func TestEachMemberIsByByte(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	parts := []string{`"`, `\`, `\"`, `\\`, `"a"`, `"level"`, `"controllerGroup"`, `"reconcileID"`,
		`"2026-12-06T23:05:59Z"`, `:`, `,`, `{`, `}`, `[`, `]`, ` `, "\t", `x`, `12`, `true`,
		strings.Repeat("y", 7), strings.Repeat("z", 15), strings.Repeat("w", 40), `"k":"v"`, `"k":{"a":"b"}`}
	type member struct{ k, v string }
	for try := 0; try < 20000; try++ {
		var sb strings.Builder
		sb.WriteString("{")
		for n := rng.Intn(24); n > 0; n-- {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		if rng.Intn(2) == 0 {
			sb.WriteString("}")
		}
		b := []byte(sb.String())
		var got, want []member
		gotStop, gotOK := eachMember(b, 0, func(k, v []byte) bool {
			got = append(got, member{string(k), string(v)})
			return true
		})
		wantStop, wantOK := eachMemberByByte(b, 0, func(k, v []byte) bool {
			want = append(want, member{string(k), string(v)})
			return true
		})
		if gotStop != wantStop || gotOK != wantOK || !slices.Equal(got, want) {
			t.Fatalf("eachMember(%s) = %d, %v, %q; want %d, %v, %q", b, gotStop, gotOK, got, wantStop, wantOK, want)
		}
		for i := range b {
			if b[i] != '"' {
				continue
			}
			end, ok := skipString(b, i)
			wantEnd, wantOK := skipStringByByte(b, i)
			if end != wantEnd || ok != wantOK {
				t.Fatalf("skipString(%s, %d) = %d, %v; want %d, %v", b, i, end, ok, wantEnd, wantOK)
			}
		}
	}
}

// eachMemberByByte is eachMember as it was before quote16: each string's
// end found byte by byte, white space by four comparisons.
func eachMemberByByte(b []byte, i int, fn func(key, val []byte) bool) (int, bool) {
	space := func(i int) int {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
		return i
	}
	value := func(i int) (int, bool) {
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case '"':
			return skipStringByByte(b, i)
		case '{', '[':
			depth := 0
			for j := i; j < len(b); j++ {
				switch b[j] {
				case '"':
					e, ok := skipStringByByte(b, j)
					if !ok {
						return e, false
					}
					j = e - 1
				case '{', '[':
					depth++
				case '}', ']':
					if depth--; depth == 0 {
						return j + 1, true
					}
				}
			}
			return len(b), false
		}
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' {
			j++
		}
		return j, j > i
	}
	i = space(i)
	if i >= len(b) || b[i] != '{' {
		return i, false
	}
	if i = space(i + 1); i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return i, false
		}
		end, ok := skipStringByByte(b, i)
		if !ok {
			return i, false
		}
		key := b[i+1 : end-1]
		if i = space(end); i >= len(b) || b[i] != ':' {
			return i, false
		}
		vs := space(i + 1)
		ve, ok := value(vs)
		if !ok {
			return vs, false
		}
		if !fn(key, b[vs:ve]) {
			return ve, true
		}
		if i = space(ve); i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i = space(i + 1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
	return i, false
}
