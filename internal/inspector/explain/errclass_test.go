package explain_test

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// An error has one class, said the same way beside it and in a table: an
// unknown class is not said ("[class unknown]" beside a finding that the
// error looks permanent read as a second class), and a table's CLASS cell
// says none as every column does, "-", where History said "unknown" on
// every row under "Last error (permanent)"'s finding.
func TestErrorClassSaidOnce(t *testing.T) {
	for _, c := range []struct{ class, text, cell string }{
		{api.ClassPermanent, "permanent", "permanent"},
		{api.ClassTransient, "transient", "transient"},
		{api.ClassUnknown, "", "-"},
		{"", "", "-"},
	} {
		if got := explain.ErrorClassText(c.class); got != c.text {
			t.Errorf("ErrorClassText(%q) = %q, want %q", c.class, got, c.text)
		}
		if got := explain.ClassCell(c.class); got != c.cell {
			t.Errorf("ClassCell(%q) = %q, want %q", c.class, got, c.cell)
		}
	}
	r := explain.NewKeyRow(&api.Key{Key: "a", LastError: &api.ErrorRecord{Message: "boom", Class: api.ClassUnknown}}, "", time.Time{})
	if r.Class != "-" {
		t.Errorf("a key's row's CLASS = %q, want -", r.Class)
	}
}
