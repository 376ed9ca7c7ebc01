package logs

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A log line is read once and most of its fields are skipped, so the parser
// walks JSON in place instead of decoding it: members are visited as raw
// byte slices and only the few strings it keeps are unescaped. It accepts
// what zap and klog write; on anything malformed it stops and says so.

// eachMember calls fn with the raw key (quotes removed, still escaped) and
// raw value of every member of the JSON object starting at b[i] (after
// whitespace). fn returns false to stop early. It returns the index after the
// object and whether the object was well formed up to where it stopped.
func eachMember(b []byte, i int, fn func(key, val []byte) bool) (int, bool) {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '{' {
		return i, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return i, false
		}
		// skipString, its common case inlined here: a line has a few
		// dozen strings, and a call each was a tenth of its parse.
		var end int
		ok := true
		q := quote16(b, i+1)
		if q == 16 {
			q = bytes.IndexByte(b[i+1:], '"')
		}
		if q >= 0 && b[i+q] != '\\' {
			end = i + q + 2
		} else if end, ok = skipEscaped(b, i); !ok {
			return i, false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		vs := skipSpace(b, i+1)
		var ve int
		if vs >= len(b) || b[vs] != '"' {
			ve, ok = skipValue(b, vs)
		} else {
			// A string, as for the key.
			if q = quote16(b, vs+1); q == 16 {
				q = bytes.IndexByte(b[vs+1:], '"')
			}
			if q >= 0 && b[vs+q] != '\\' {
				ve = vs + q + 2
			} else {
				ve, ok = skipEscaped(b, vs)
			}
		}
		if !ok {
			return vs, false
		}
		if !fn(key, b[vs:ve]) {
			return ve, true
		}
		i = skipSpace(b, ve)
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
	return i, false
}

// eachElement calls fn with every raw element of the JSON array raw.
func eachElement(raw []byte, fn func(val []byte)) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return true
	}
	for i < len(raw) {
		e, ok := skipValue(raw, i)
		if !ok {
			return false
		}
		fn(raw[i:e])
		i = skipSpace(raw, e)
		if i >= len(raw) {
			return false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
	return false
}

// skipSpace is the index of the first byte from i that is not JSON's
// white space. It is called around every key and value, and zap writes
// none: a byte above ' ' (every byte after a member but space and
// control bytes) is rejected by one comparison, not four.
func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
// It jumps from quote to quote (bytes.IndexByte, vectorised): the long
// strings of a line (a stack trace, an error) hold few quotes and many
// bytes, and a byte-by-byte walk was most of a line's parse. A quote ends
// the string unless an odd run of backslashes escapes it.
func skipString(b []byte, i int) (int, bool) {
	// Most strings hold no escaped quote: their end is their first quote.
	q := quote16(b, i+1)
	if q == 16 {
		q = bytes.IndexByte(b[i+1:], '"')
	}
	if q >= 0 && b[i+q] != '\\' {
		return i + q + 2, true
	}
	return skipEscaped(b, i)
}

// quote16 is the index of the first quote in the sixteen bytes of b from
// j; 16 for none, or when fewer than sixteen are left. It inlines: most
// keys and many values of a line are shorter, and a call of the
// vectorised search (bytes.IndexByte) costs more than its search of them.
// A zero byte of x (or y) is a quote of b; the lowest byte t marks is
// one (a borrow runs only upwards, past it), and none leaves 64 zeros.
func quote16(b []byte, j int) int {
	if j < 0 || len(b)-j < 16 {
		return 16
	}
	x := binary.LittleEndian.Uint64(b[j:]) ^ swarQuotes
	if t := (x - swarLo) &^ x & swarHi; t != 0 {
		return bits.TrailingZeros64(t) / 8
	}
	y := binary.LittleEndian.Uint64(b[j+8:]) ^ swarQuotes
	return 8 + bits.TrailingZeros64((y-swarLo)&^y&swarHi)/8
}

// Eight bytes a word: swarLo has each byte 1, swarHi each byte's top bit,
// swarQuotes each byte a quote.
const (
	swarLo     = 0x0101010101010101
	swarHi     = 0x8080808080808080
	swarQuotes = '"' * swarLo
)

// skipEscaped is skipString of a string whose first quote after the
// opening one may be escaped (or that is not closed).
func skipEscaped(b []byte, i int) (int, bool) {
	j := i + 1
	for j < len(b) {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return len(b), false
		}
		j += q
		n := 0
		for k := j - 1; k > i && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, true
		}
		j++
	}
	return len(b), false
}

// skipValue returns the index after the value starting at b[i]: a string,
// an object or array (brackets balanced outside strings), or a bare word
// (number, true, false, null).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e, ok := skipString(b, j)
				if !ok {
					return e, false
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
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

// jsonString returns the text of a raw JSON value: a string unescaped, any
// other value as written.
func jsonString(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return string(raw)
	}
	return unescape(raw[1 : len(raw)-1])
}

// unescape decodes JSON string escapes; an invalid escape is kept as written.
func unescape(s []byte) string {
	i := bytes.IndexByte(s, '\\')
	if i < 0 {
		return string(s)
	}
	out := make([]byte, 0, len(s))
	out = append(out, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			out = append(out, c)
			i++
			continue
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := hexRune(s[i:])
			if n == 0 {
				out = append(out, s[i:i+2]...)
				break
			}
			out = utf8.AppendRune(out, r)
			i += n
			continue
		default:
			out = append(out, s[i:i+2]...)
		}
		i += 2
	}
	return string(out)
}

// hexRune decodes a \uXXXX escape (and its low surrogate, when it forms a
// pair) at the start of s; n is the bytes used, 0 if it is not one.
func hexRune(s []byte) (rune, int) {
	if len(s) < 6 {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(s[2:6]), 16, 32)
	if err != nil {
		return 0, 0
	}
	r := rune(v)
	if utf16.IsSurrogate(r) && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if lo, err := strconv.ParseUint(string(s[8:12]), 16, 32); err == nil {
			if p := utf16.DecodeRune(r, rune(lo)); p != utf8.RuneError {
				return p, 12
			}
		}
	}
	return r, 6
}
