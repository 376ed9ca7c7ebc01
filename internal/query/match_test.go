package query

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestMatcherMemo: a long message shared by many keys is matched once per
// request; the answer is the same as matching each time.
func TestMatcherMemo(t *testing.T) {
	msg := strings.Repeat("connection refused; ", 10) + "Timeout"
	other := strings.Clone(msg[:len(msg)-1]) + "x"
	m, err := NewMatcher(api.Filter{Q: "~Timeout$"}, api.States)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if !m.Match("k", msg, api.StateBackoff) || m.Match("k", other, api.StateBackoff) {
			t.Fatalf("match(%q) or !match(%q) failed", msg, other)
		}
	}
	// The short key is matched on every call (6), each long message once (2).
	if got := m.matches; got != 3*2+2 {
		t.Errorf("regular expression ran %d times, want 8", got)
	}
}
