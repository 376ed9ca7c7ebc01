package instrument

import (
	"strings"
	"sync"
	"unicode/utf8"
)

const (
	// maxErrorBytes bounds the error text kept per key.
	maxErrorBytes = 4 << 10
	// maxInterned bounds the interning table; when it fills, it starts over, so a
	// flood of distinct messages costs memory once, not forever.
	maxInterned = 8192
)

// interner keeps one copy of each error message, so 5,000 keys failing with the
// same message hold one string between them.
type interner struct {
	mu sync.Mutex
	m  map[string]string
}

// intern returns the shared copy of msg, truncated to maxErrorBytes. The caller
// compares against the key's previous message first: the steady state (the same
// error again) never reaches here.
func (in *interner) intern(msg string) string {
	msg = truncate(msg, maxErrorBytes)
	in.mu.Lock()
	defer in.mu.Unlock()
	if s, ok := in.m[msg]; ok {
		return s
	}
	if in.m == nil || len(in.m) >= maxInterned {
		in.m = make(map[string]string, 64)
	}
	// Clone: msg may be a slice of a much larger string the caller built.
	s := strings.Clone(msg)
	in.m[s] = s
	return s
}

// truncMark marks where truncate cut a message.
const truncMark = "…"

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:cutAt(s, n)] + truncMark
}

// cutAt is where truncate cuts s, which is longer than n.
func cutAt(s string, n int) int {
	cut := n - len(truncMark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}

// truncatedIs reports whether truncate(s, n) == t without building the cut
// string, so that a long error repeated on every retry costs no allocation.
func truncatedIs(s, t string, n int) bool {
	if len(s) <= n {
		return s == t
	}
	cut := cutAt(s, n)
	return len(t) == cut+len(truncMark) && t[cut:] == truncMark && t[:cut] == s[:cut]
}
