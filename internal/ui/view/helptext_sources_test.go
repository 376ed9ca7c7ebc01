package view

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestSourceHelpNamesEverySource: the ? help's SOURCE column names every
// delay source the table can show, log mode's spacing too (docs/states.md
// has it; a reader of `top --from-logs` sees it in the column).
func TestSourceHelpNamesEverySource(t *testing.T) {
	var help string
	for _, c := range columnHelp {
		if c[0] == "SOURCE" {
			help = c[1]
		}
	}
	for _, src := range []string{api.SourceItemExponential, api.SourceBucket, api.SourceRequeueAfter, api.SourceLimiter, api.SourceSpread, api.SourceSpacing, api.SourceWaited} {
		if !strings.Contains(help, src) {
			t.Errorf("SOURCE help %q\ndoes not name %q", help, src)
		}
	}
}
