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
	a := quotaBlockedDeployment()
	var b bytes.Buffer
	defer screenWidthForTest(120)() // the cut is a terminal's: piped, it prints whole
	printAnswerList(&b, []*why.Answer{a}, false)
	out := b.String()
	want := "waits for replicaset.apps/nginx-deployment-4262182780: …"
	if !strings.Contains(out, want) || !strings.HasSuffix(strings.TrimSpace(out), "limited: pods=2") {
		t.Errorf("list:\n%s\nwant its MESSAGE to begin %q and end with the quota's limit", out, want)
	}
}

// TestWhyListFitsTheTerminal: `why TYPE`'s MESSAGE was cut to a fixed 100
// runes on any terminal, so at 80 columns each row wrapped, the cause
// with it. It takes what the other columns leave: at 200 columns one row
// per object, cut at its start (the quota's limit kept); at 80, where the
// other columns leave under 30 cells, the message goes under its row,
// whole and wrapped between words. No line wider than the terminal.
func TestWhyListFitsTheTerminal(t *testing.T) {
	a := quotaBlockedDeployment()
	list := func(width int) string {
		defer screenWidthForTest(width)()
		var b bytes.Buffer
		printAnswerList(&b, []*why.Answer{a}, true)
		return b.String()
	}
	narrow, wide := list(80), list(200)
	wantWithin(t, narrow, 80)
	wantWithin(t, wide, 200)
	if n := strings.Count(wide, "\n"); n != 2 || !strings.HasSuffix(strings.TrimSpace(wide), "limited: pods=2") {
		t.Errorf("at 200 columns:\n%s\nwant the heading and one row, ending with the quota's limit", wide)
	}
	if strings.Contains(narrow, "MESSAGE") || !strings.Contains(strings.Join(strings.Fields(narrow), " "), "forbidden: exceeded quota: object-counts, requested: pods=1") {
		t.Errorf("at 80 columns:\n%s\nwant the message whole under its row", narrow)
	}
}

// quotaBlockedDeployment is the documentation's Deployment whose
// ReplicaSet the quota refuses pods: its chain's blocker says so.
func quotaBlockedDeployment() *why.Answer {
	rs := &why.Node{Object: why.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "nginx-deployment-4262182780"},
		Via: "owner reference", Status: why.InProgress, Blocker: true,
		Line: `ReplicaFailure=True (FailedCreate): pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`}
	root := &why.Node{Object: why.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "nginx-deployment"}, Status: why.InProgress, Below: []*why.Node{rs}}
	a := &why.Answer{Object: root.Object, Verdict: why.Verdict{Status: why.InProgress, Message: "Deployment does not have minimum availability."}, Chain: &why.Chain{Root: root}}
	return a
}
