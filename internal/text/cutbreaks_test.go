package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// OneLineAtBreaks cuts between the parts of an error, at every width: it
// fits, its start and end are the message's own, the start ends at a break
// and the end starts after one (the message has breaks every few runes).
func TestOneLineAtBreaks(t *testing.T) {
	const msg = "sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00000: 503 Service Unavailable"
	for n := 16; n < utf8.RuneCountInString(msg); n++ {
		got := OneLineAtBreaks(msg, n)
		head, tail, ok := strings.Cut(got, "…")
		if !ok || utf8.RuneCountInString(got) > n {
			t.Fatalf("%d: %q: want a cut with \"…\", at most %d runes", n, got, n)
		}
		if !strings.HasPrefix(msg, head) || !strings.HasSuffix(msg, tail) {
			t.Fatalf("%d: %q: its ends are not the message's", n, got)
		}
		last, _ := utf8.DecodeLastRuneInString(head)
		if next, _ := utf8.DecodeRuneInString(msg[len(head):]); !isBreak(next) && !isBreak(last) {
			t.Errorf("%d: %q: the start ends inside a part", n, got)
		}
		if prev, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(msg, tail)); !isBreak(prev) {
			t.Errorf("%d: %q: the end starts inside a part", n, got)
		}
	}
	if got, want := OneLineAtBreaks(msg, 80), "sync with inventory API: PUT…inventory.demo.svc/v1/items/outage-00000: 503 Service Unavailable"; utf8.RuneCountInString(got) > 80 {
		t.Errorf("80: %q, like %q, is too wide", got, want)
	}
	// One long token: no break within reach, the plain cut stands.
	long := strings.Repeat("x", 60)
	if got, want := OneLineAtBreaks(long, 30), OneLine(long, 30); got != want {
		t.Errorf("a token without breaks: %q, want OneLine's %q", got, want)
	}
	if got := OneLineAtBreaks("short", 30); got != "short" {
		t.Errorf("a message that fits: %q", got)
	}
}

// OneLineStart keeps a message's start, to a break where one is near, in
// at most n runes, escaped and on one line.
func TestOneLineStart(t *testing.T) {
	const msg = "failed to allocate cidr from cluster cidr at idx:0: CIDR allocation failed; there are no remaining CIDRs left"
	for _, tt := range []struct {
		n    int
		want string
	}{
		{11, "failed to…"},
		{14, "failed to…"},
		{19, "failed to allocate…"},
		{0, msg},
		{200, msg},
		{8, "failed…"},
		{5, "fail…"}, // no break in its second half: the plain cut
	} {
		if got := OneLineStart(msg, tt.n); got != tt.want || utf8.RuneCountInString(got) > max(tt.n, len(msg)) {
			t.Errorf("%d: %q, want %q", tt.n, got, tt.want)
		}
	}
	if got, want := OneLineStart("a\x1b[2Jb\ncd efgh ijkl", 9), `a\x1b[2J…`; got != want {
		t.Errorf("control characters: %q, want %q (escaped, then cut)", got, want)
	}
}
