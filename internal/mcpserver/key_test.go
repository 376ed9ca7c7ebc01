package mcpserver

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestKeySummaryObjectGeneration: the key tool's summary gives an object's
// generation, and none for a ConfigMap, which has none (it said
// "generation 0").
func TestKeySummaryObjectGeneration(t *testing.T) {
	d := &describe.Description{Key: &inspector.PodKeyDetail{}}
	for _, tc := range []struct {
		gen  int64
		want string
	}{
		{0, "Object: Current.\n"},
		{3, "Object: Current (generation 3).\n"},
	} {
		d.Object = &objstatus.Object{Kind: "ConfigMap", Verdict: objstatus.Verdict{Status: objstatus.Current, Generation: tc.gen}}
		if got := keySummary(d, false); !strings.Contains(got, tc.want) {
			t.Errorf("generation %d: summary\n%s\nwant the line %q", tc.gen, got, tc.want)
		}
	}
}
