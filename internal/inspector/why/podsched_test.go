package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes/fake"
)

// TestPodNotScheduled: a Pending Pod no node runs is the scheduler's to
// answer for, from its PodScheduled condition: never "check that the
// controller of kind Pod is installed" (issue 41's newcomer, item 15, on a
// cluster with no scheduler).
func TestPodNotScheduled(t *testing.T) {
	for _, tc := range []struct {
		file    string
		summary string // what the summary must say
		next    string
	}{
		{"pod-no-scheduler.yaml", "not scheduled: no node is assigned (spec.nodeName is empty) and no scheduler has looked at it (it has no PodScheduled condition).",
			`Check that a scheduler runs: the Pod names "default-scheduler" (spec.schedulerName)`},
		{"pod-unschedulable.yaml", "not scheduled: the scheduler found no node for it (PodScheduled=False (Unschedulable): 0/1 nodes are available: 1 Insufficient cpu).",
			"Give it a node it fits"},
	} {
		u := load(t, tc.file)
		a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, Now: func() time.Time { return now }}
		ans := a.Ask(context.Background(), u, "pods")
		all := ans.Summary + "\n" + strings.Join(ans.Next, "\n") + "\n" + ans.Controller.How
		if !strings.Contains(ans.Summary, tc.summary) {
			t.Errorf("%s: summary\n %s\nwant it to say\n %s", tc.file, ans.Summary, tc.summary)
		}
		if !strings.Contains(strings.Join(ans.Next, "\n"), tc.next) {
			t.Errorf("%s: next %q; want %q", tc.file, ans.Next, tc.next)
		}
		if strings.Contains(all, "controller of kind Pod") || strings.Contains(all, "no controller has reconciled") {
			t.Errorf("%s: the answer sends the user to a Pod controller:\n%s", tc.file, all)
		}
	}
}
