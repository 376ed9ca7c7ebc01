package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestWhyNamesAnUnknownClassAsAClass: why's Last error printed "quota
// exceeded [unknown]" (the README's example), read as an error nobody
// knows, then "[class unknown]", read beside a finding that the error looks
// permanent as a second class contradicting it: an unknown class is not
// said at all, a known one is, in brackets.
func TestWhyNamesAnUnknownClassAsAClass(t *testing.T) {
	a := whyOutageAnswer()
	a.Backoff.Key.LastError.Class = api.ClassUnknown
	var b bytes.Buffer
	printAnswer(&b, a)
	out := b.String()
	if !strings.Contains(out, "503 Service Unavailable, ") || strings.Contains(out, "unknown]") {
		t.Errorf("Last error says an unknown class:\n%s", out)
	}
	a.Backoff.Key.LastError.Class = api.ClassTransient
	b.Reset()
	printAnswer(&b, a)
	if out := b.String(); !strings.Contains(out, "503 Service Unavailable [transient], ") {
		t.Errorf("Last error does not say its known class:\n%s", out)
	}
}
