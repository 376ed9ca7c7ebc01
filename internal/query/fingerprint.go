package query

import (
	"strings"
	"unicode/utf8"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// fold is what a fingerprint holds where messages differ.
const fold = api.FingerprintFold

// Fingerprint folds what varies between error messages of one cause, so that
// they compare equal: `dial tcp 10.0.0.7:443: connect: connection refused`
// becomes `dial tcp …: connect: connection refused`. It is the one
// definition v1/errors groups by. Folded, left to right: quoted names (the
// quotes stay), IP addresses with their port, UUIDs and hex ids of 8 or more
// digits, then any other number, also inside a name (widget-00042) — except
// an HTTP status ("503 Service Unavailable") and an API version (v1beta2),
// which are causes. Folds
// separated by at most one punctuation character merge into one.
//
// It is one pass over msg, no regular expressions: v1/errors runs it on
// every distinct message of 100,000 keys.
func Fingerprint(msg string) string {
	var b strings.Builder
	b.Grow(len(msg))
	for i := 0; i < len(msg); {
		c := msg[i]
		boundary := i == 0 || !isWord(msg[i-1])
		if n := quotedLen(msg[i:]); n > 0 {
			b.WriteByte(c)
			b.WriteString(fold)
			b.WriteByte(c)
			i += n
			continue
		}
		if n := bracketIPLen(msg[i:]); n > 0 {
			b.WriteString(fold)
			i += n
			continue
		}
		if boundary {
			if n := apiVersionLen(msg[i:]); n > 0 {
				// v1, v1beta2: which API, a cause, not a number that varies.
				b.WriteString(msg[i : i+n])
				i += n
				continue
			}
			if n := max(ipv4Len(msg[i:]), uuidLen(msg[i:]), hexIDLen(msg[i:])); n > 0 {
				b.WriteString(fold)
				i += n
				continue
			}
		}
		if isDigit(c) {
			if (i == 0 || msg[i-1] == ' ') && isStatus(msg[i:]) {
				b.WriteString(msg[i : i+3])
				i += 3
				continue
			}
			b.WriteString(fold)
			i += numberLen(msg[i:])
			continue
		}
		b.WriteByte(c)
		i++
	}
	return mergeFolds(b.String())
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }
func isWord(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c == '_'
}

// endsWord reports whether s[n:] starts at a word boundary.
func endsWord(s string, n int) bool { return n == len(s) || !isWord(s[n]) }

// apiVersionLen is the length of a Kubernetes API version at the start of
// s (v1, v2beta1, v1alpha3), ending at a word boundary, or 0.
func apiVersionLen(s string) int {
	if s[0] != 'v' {
		return 0
	}
	n := 1 + digitsLen(s[1:], len(s))
	if n == 1 {
		return 0
	}
	for _, stage := range []string{"alpha", "beta"} {
		if rest := s[n:]; strings.HasPrefix(rest, stage) {
			if d := digitsLen(rest[len(stage):], len(rest)); d > 0 {
				n += len(stage) + d
			}
			break
		}
	}
	if !endsWord(s, n) {
		return 0
	}
	return n
}

// quotedLen is the length of a quoted name at the start of s: "…", '…' or `…`.
func quotedLen(s string) int {
	if q := s[0]; q == '"' || q == '\'' || q == '`' {
		if j := strings.IndexByte(s[1:], q); j >= 0 {
			return j + 2
		}
	}
	return 0
}

// bracketIPLen is the length of an IPv6 address in brackets with an
// optional port: [fd00::1]:443.
func bracketIPLen(s string) int {
	if s[0] != '[' {
		return 0
	}
	n := 1
	for n < len(s) && (isHex(s[n]) || s[n] == ':' || s[n] == '.') {
		n++
	}
	if n == 1 || n == len(s) || s[n] != ']' {
		return 0
	}
	return n + 1 + portLen(s[n+1:])
}

// portLen is the length of ":digits" at the start of s, or 0.
func portLen(s string) int {
	if len(s) < 2 || s[0] != ':' || !isDigit(s[1]) {
		return 0
	}
	return 1 + digitsLen(s[1:], len(s))
}

func digitsLen(s string, most int) int {
	n := 0
	for n < len(s) && n < most && isDigit(s[n]) {
		n++
	}
	return n
}

// ipv4Len is the length of a dotted quad with an optional port, ending at a
// word boundary.
func ipv4Len(s string) int {
	n := 0
	for part := range 4 {
		if part > 0 {
			if n >= len(s) || s[n] != '.' {
				return 0
			}
			n++
		}
		d := digitsLen(s[n:], 3)
		if d == 0 {
			return 0
		}
		n += d
	}
	n += portLen(s[n:])
	if !endsWord(s, n) {
		return 0
	}
	return n
}

// uuidLen is the length of a UUID (8-4-4-4-12 hex digits) at a word boundary.
func uuidLen(s string) int {
	n := 0
	for i, want := range [...]int{8, 4, 4, 4, 12} {
		if i > 0 {
			if n >= len(s) || s[n] != '-' {
				return 0
			}
			n++
		}
		for range want {
			if n >= len(s) || !isHex(s[n]) {
				return 0
			}
			n++
		}
	}
	if !endsWord(s, n) {
		return 0
	}
	return n
}

// hexIDLen is the length of a hex id: a word of 8 or more hex digits
// (optionally 0x-prefixed) with a letter after a digit, so that words such
// as "deadbeef" or "accepted" are not ids.
func hexIDLen(s string) int {
	n := 0
	if strings.HasPrefix(s, "0x") {
		n = 2
	}
	start, digit, letterAfterDigit := n, false, false
	for n < len(s) && isHex(s[n]) {
		if isDigit(s[n]) {
			digit = true
		} else if digit {
			letterAfterDigit = true
		}
		n++
	}
	if n-start < 8 || !letterAfterDigit || !endsWord(s, n) {
		return 0
	}
	return n
}

// isStatus reports whether s starts with an HTTP status and its text: "503 S".
func isStatus(s string) bool {
	return len(s) >= 5 && '1' <= s[0] && s[0] <= '5' && isDigit(s[1]) && isDigit(s[2]) && s[3] == ' ' && 'A' <= s[4] && s[4] <= 'Z'
}

// numberLen is the length of digits with an optional decimal part.
func numberLen(s string) int {
	n := digitsLen(s, len(s))
	if n+1 < len(s) && s[n] == '.' && isDigit(s[n+1]) {
		n += 1 + digitsLen(s[n+1:], len(s))
	}
	return n
}

// mergeFolds merges folds separated by at most one non-word character:
// "…:…" is one varying part.
func mergeFolds(s string) string {
	if strings.Count(s, fold) < 2 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.Index(s, fold)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+len(fold)])
		s = s[i+len(fold):]
		for {
			if strings.HasPrefix(s, fold) {
				s = s[len(fold):]
				continue
			}
			if s == "" {
				break
			}
			r, size := utf8.DecodeRuneInString(s)
			if r < utf8.RuneSelf && isWord(byte(r)) || !strings.HasPrefix(s[size:], fold) {
				break
			}
			s = s[size+len(fold):]
		}
	}
}

// maskName folds, in a key's error message, the key itself
// ("namespace/name") and its object's name where it stands alone
// (`sync down-1: eu region unavailable`): unquoted, the name of the object
// failing is as much what varies between keys of one cause as a quoted one,
// which Fingerprint folds. A name inside a longer one (down-1 in down-10)
// is not the object's.
func maskName(msg, key string) string {
	name := key
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		name = key[i+1:]
	}
	if name == "" || !strings.Contains(msg, name) {
		return msg
	}
	if key != name {
		msg = strings.ReplaceAll(msg, key, fold)
	}
	var b strings.Builder
	for {
		i := strings.Index(msg, name)
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		end := i + len(name)
		alone := (i == 0 || !isNameByte(msg[i-1])) && (end == len(msg) || !isNameByte(msg[end]))
		b.WriteString(msg[:i])
		if alone {
			b.WriteString(fold)
		} else {
			b.WriteString(name)
		}
		msg = msg[end:]
	}
}

// isNameByte reports whether c can continue an object's name.
func isNameByte(c byte) bool { return isWord(c) || c == '-' }
