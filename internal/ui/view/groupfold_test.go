package view

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// A fold is named by what it folded in the group's message, on the
// endpoint's own fingerprints (query.Fingerprint), so that "…" in the g
// view means a cut alone.
func TestShowFolds(t *testing.T) {
	for _, tt := range []struct{ msg, want string }{
		{"sync inventory: dial tcp 10.0.0.7:443: connect: connection refused", "sync inventory: dial tcp <address>: connect: connection refused"},
		{`quota "team-7" exceeded by 12 objects`, `quota "<name>" exceeded by <number> objects`},
		{"pod 3f2a9c1e-77aa-4c2b-9d1e-0123456789ab not ready", "pod <id> not ready"},
		{"Internal error occurred: failed calling webhook: 503 Service Unavailable", "Internal error occurred: failed calling webhook: 503 Service Unavailable"},
		{"node widget-00042 has 3 taints", "node widget-<number> has <number> taints"},
		{"retry 7", "retry <number>"},
	} {
		fp := query.Fingerprint(tt.msg)
		if got := ShowFolds(fp, tt.msg); got != tt.want {
			t.Errorf("ShowFolds(%q, %q) = %q, want %q", fp, tt.msg, got, tt.want)
		}
	}
	// A message that is not the fingerprint's: each fold varies; a lone
	// fold gathers the rarest errors, merged, and says so.
	if got := ShowFolds(`quota "…" exceeded`, "something else"); got != `quota "<varies>" exceeded` {
		t.Errorf("a message that does not line up: %q", got)
	}
	if got := ShowFolds(fold, "anything"); got != foldRarest {
		t.Errorf("a lone fold: %q", got)
	}
}
