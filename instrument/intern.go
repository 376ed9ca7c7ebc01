package instrument

import (
	"unicode/utf8"
	"unique"
)

// maxErrorBytes bounds the error text kept per key.
const maxErrorBytes = 4 << 10

// text is an error message kept once however many keys and attempts record it
// (5,000 keys failing with the same message hold one string between them), in
// one pointer: a key's history holds 16 of them. The zero text is no message.
// The runtime's unique map holds each message only while some key refers to
// it, so a flood of distinct messages costs memory only while it is recorded.
type text struct{ h unique.Handle[string] }

// internText returns the shared copy of msg, truncated to maxErrorBytes, or
// the zero text for "". The caller compares against the key's previous
// message first: the steady state (the same error again) never reaches here.
// unique.Make copies msg, which may be a slice of a larger string.
func internText(msg string) text {
	if msg == "" {
		return text{}
	}
	return text{unique.Make(truncate(msg, maxErrorBytes))}
}

// String returns the message, "" for none.
func (t text) String() string {
	if t == (text{}) {
		return ""
	}
	return t.h.Value()
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
