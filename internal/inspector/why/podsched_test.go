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

// TestSchedulerStepOnce: a ReplicaSet whose two pods no scheduler has
// looked at (pod-no-scheduler.yaml's Pod, twice): the chain's steps said
// "Check that a scheduler runs" once per Pending pod; once is the step.
func TestSchedulerStepOnce(t *testing.T) {
	u := load(t, "pod-no-scheduler.yaml")
	s, next, ok := unscheduled(u, Verdict{Status: InProgress})
	if !ok {
		t.Fatal("pod-no-scheduler.yaml not read as unscheduled")
	}
	var nodes []*Node
	var answers []*Answer
	for _, name := range []string{"web-1-a", "web-1-b"} {
		o := Object{APIVersion: "v1", Kind: "Pod", Namespace: "q", Name: name, Key: "q/" + name}
		nodes = append(nodes, &Node{Object: o, Via: "owner reference", Status: InProgress, Line: "Pending", Blocker: true})
		answers = append(answers, &Answer{Object: o, Summary: s, Next: next})
	}
	rs := &Node{Object: Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "q", Name: "web-1"}, Status: InProgress, Below: nodes}
	a := &Answer{Object: Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "q", Name: "web", Key: "q/web"},
		Verdict: Verdict{Status: InProgress}, Blockers: answers, Chain: &Chain{Root: &Node{Status: InProgress, Below: []*Node{rs}}}}
	_, steps := chainSummary(a)
	all := strings.Join(steps, "\n")
	if n := strings.Count(all, "Check that a scheduler runs"); n != 1 {
		t.Errorf("steps say \"Check that a scheduler runs\" %d times; want once:\n%s", n, all)
	}
	for _, want := range []string{"pod/web-1-a: ", "pod/web-1-b: "} {
		if !strings.Contains(all, want) {
			t.Errorf("steps lack %q:\n%s", want, all)
		}
	}
}
