package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestWhyNamesAnUnknownClassAsAClass: why's Last error printed "quota
// exceeded [unknown]" (the README's example), read as an error nobody
// knows, though it is quoted right there: it is its class that is unknown.
func TestWhyNamesAnUnknownClassAsAClass(t *testing.T) {
	a := whyOutageAnswer()
	a.Backoff.Key.LastError.Class = api.ClassUnknown
	var b bytes.Buffer
	printAnswer(&b, a)
	out := b.String()
	if !strings.Contains(out, "503 Service Unavailable [class unknown], ") || strings.Contains(out, "[unknown]") {
		t.Errorf("Last error does not say its class is what is unknown:\n%s", out)
	}
}
