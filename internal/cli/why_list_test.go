package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestWhyListSaysTheBlocker: `why TYPE`'s MESSAGE is what blocks the object
// when its chain shows one, the blocker named whole and its line cut at the
// start (the quota message of the documentation's Deployment, too long for
// the column).
func TestWhyListSaysTheBlocker(t *testing.T) {
	rs := &why.Node{Object: why.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "nginx-deployment-4262182780"},
		Via: "owner reference", Status: why.InProgress, Blocker: true,
		Line: `ReplicaFailure=True (FailedCreate): pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`}
	root := &why.Node{Object: why.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "nginx-deployment"}, Status: why.InProgress, Below: []*why.Node{rs}}
	a := &why.Answer{Object: root.Object, Verdict: why.Verdict{Status: why.InProgress, Message: "Deployment does not have minimum availability."}, Chain: &why.Chain{Root: root}}
	var b bytes.Buffer
	defer onTerminalForTest(true)() // the cut is a terminal's: piped, it prints whole
	printAnswerList(&b, []*why.Answer{a}, false)
	out := b.String()
	want := "waits for replicaset.apps/nginx-deployment-4262182780: …"
	if !strings.Contains(out, want) || !strings.HasSuffix(strings.TrimSpace(out), "limited: pods=2") {
		t.Errorf("list:\n%s\nwant its MESSAGE to begin %q and end with the quota's limit", out, want)
	}
}
