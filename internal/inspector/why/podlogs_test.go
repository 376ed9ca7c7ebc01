package why

import (
	"context"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestReadBackoffPodLogs: --from-logs alone reads an instrumented
// controller's pods' log, not its endpoint, and says so; without it the
// endpoint is read.
func TestReadBackoffPodLogs(t *testing.T) {
	c := &Controller{Name: "widget", Target: "deploy/widget-operator", Namespace: "widget-system", Rule: RuleInstrumented, Instrumented: true}
	gk := schema.GroupKind{Group: "example.com", Kind: "Widget"}
	for _, tc := range []struct {
		podLogs bool
		asked   []string
	}{
		{false, []string{"endpoint widget-system/deploy/widget-operator"}},
		{true, []string{"logs widget-system/deploy/widget-operator"}},
	} {
		f := &fakeKeys{endpoint: &Backoff{Source: SourceEndpoint}, log: &Backoff{Source: SourceLogs}}
		b, err := readBackoff(context.Background(), f, c, gk, "default/w1", tc.podLogs)
		if err != nil || !slices.Equal(f.asked, tc.asked) {
			t.Errorf("podLogs %v: asked %v (error %v), want %v", tc.podLogs, f.asked, err, tc.asked)
		}
		if tc.podLogs && (b == nil || !strings.Contains(b.Note, "its log was read, as asked")) {
			t.Errorf("podLogs: note %q; want it to say the log was read as asked", b.Note)
		}
	}
}
