package explain_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestStatesDocQuotesWhatQueuedPrints: docs/states.md quotes, for the
// queued state, what describe prints of each queued key, and prints
// nothing it does not quote (it said "Queued since …" alone, where a key
// whose retry came due prints "Queued: its retry came due at …"). A quote
// is read with "…" standing for any text.
func TestStatesDocQuotesWhatQueuedPrints(t *testing.T) {
	md, err := os.ReadFile("../../../docs/states.md")
	if err != nil {
		t.Fatal(err)
	}
	var quotes []*regexp.Regexp
	for line := range strings.SplitSeq(string(md), "\n") {
		if !strings.HasPrefix(line, "| `queued` |") {
			continue
		}
		cells := strings.Split(line, " | ")
		for _, q := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(cells[len(cells)-1], -1) {
			quotes = append(quotes, regexp.MustCompile("^"+strings.ReplaceAll(regexp.QuoteMeta(q[1]), "…", ".+")+"$"))
		}
	}
	if len(quotes) == 0 {
		t.Fatal("docs/states.md has no queued row with a quote")
	}
	keys := map[string]api.Key{
		"queued":                  {State: api.StateQueued, QueuedAt: at(-2 * time.Second)},
		"queued by a watch event": {State: api.StateQueued, QueuedAt: at(-2 * time.Second), LastEventAt: at(-2 * time.Second)},
		"its retry came due": {State: api.StateQueued, Failures: 2, DelaySource: api.SourceItemExponential, NextRetryAt: at(-time.Second),
			LastError: errAt("boom", -2*time.Second)},
		"its re-check came due": {State: api.StateQueued, DelaySource: api.SourceRequeueAfter, NextRetryAt: at(-time.Second)},
	}
	quoted := make([]bool, len(quotes))
	for name, k := range keys {
		s := explain.Explain(explain.Input{Key: k, Now: explainNow}).Summary
		found := false
		for i, q := range quotes {
			if q.MatchString(s) {
				found, quoted[i] = true, true
			}
		}
		if !found {
			t.Errorf("%s prints %q, which docs/states.md does not quote", name, s)
		}
	}
	for i, q := range quotes {
		if !quoted[i] {
			t.Errorf("docs/states.md quotes %s, which no queued key prints", q)
		}
	}
}
