package view

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The filter of a fingerprint selects the messages that share it, and no other.
func TestFingerprintFilter(t *testing.T) {
	fp := "dial tcp …: connect: connection refused" // as v1/errors folds it
	q := FingerprintFilter(fp)
	re := regexp.MustCompile(strings.TrimPrefix(q, "~"))
	for msg, want := range map[string]bool{
		"dial tcp 10.0.0.9:8443: connect: connection refused": true,
		"dial tcp 10.0.0.9:8443: i/o timeout":                 false,
		"demo/widget-1":                                       false,
	} {
		if got := re.MatchString(msg); got != want {
			t.Errorf("filter %q on %q: %v, want %v", q, msg, got, want)
		}
	}
	long := strings.Repeat("x… ", 600) + "the end of a very long message"
	if q := FingerprintFilter(long); len(q) > widget.MaxFilterLen || strings.HasPrefix(q, "~") {
		t.Errorf("a too-long fingerprint gives filter of %d bytes starting %q; want a substring within %d", len(q), q[:10], widget.MaxFilterLen)
	}
}
