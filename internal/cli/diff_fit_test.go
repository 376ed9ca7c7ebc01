package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

// TestDiffFitsATerminal: diff of two snapshots of the demo's outage, on an
// 80-column terminal, put LAST ERROR at column 79 and wrapped each row
// ("s\nync with inventory…"). Fitted: a state that did not change is said
// once, CONTROLLER goes (one controller's keys), and every row is one line
// that keeps its error's cause; piped, the table is as before.
func TestDiffFitsATerminal(t *testing.T) {
	const outage = "sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00093: 503 Service Unavailable"
	before := &api.Key{Controller: "outage", Key: "demo/outage-00093", State: api.StateBackoff, Failures: 12, LastError: &api.ErrorRecord{Message: outage}}
	after := *before
	after.Failures = 13
	changes := []snapshot.Change{{Controller: "outage", Key: "demo/outage-00093", Changes: []string{snapshot.Grew}, Before: before, After: &after}}

	defer screenWidthForTest(80)()
	var b bytes.Buffer
	printChanges(&b, changes)
	out := b.String()
	if n := strings.Count(out, "\n"); n != 2 {
		t.Errorf("%d lines, want the header and one row:\n%s", n, out)
	}
	wantWithin(t, out, 80)
	if strings.Contains(out, "backoff → backoff") || !strings.Contains(out, "12 → 13") || !strings.HasSuffix(out, "Unavailable\n") {
		t.Errorf("fitted:\n%s\nwant the state once, the failures' change, the error's cause", out)
	}
}
