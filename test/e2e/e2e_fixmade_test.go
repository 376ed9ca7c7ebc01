//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// What why says once the user's fix is made, on the real
// kube-controller-manager, which only unit tests checked before
// (TestFixMadeSaysWhatNow, TestQuotaRoom, TestQuotaRaisedAndUsed, the
// watch's resourceVersion compare): after the quota is raised, the fix
// already made is not asked for again; the quota raised since it refused
// is not "Refusing" once the pods it refused are created; `why -w` ends on
// the answer without the quota.

// nothingLeftToFix is why's step for an object whose error came before the
// user's change r to the quota (why.fixMade), with the retry's time and
// the kick.
func nothingLeftToFix(q string, r *why.Retry, kick string) string {
	return "Nothing left to fix: its error came before your change to resourcequota/" + q + ". Wait for its retry at " +
		text.TimeOfDay(r.NextRetry) + ", or retry now: `" + kick + "`"
}

// assertFixMade checks a's steps after the quota's raise, asked at asked
// before the controller's retry: "Nothing left to fix" with the retry's
// time still to come and the kick, not "Fix what the error names"; and the
// quota has room now, at the use the refusal named.
func assertFixMade(t *testing.T, who string, a *why.Answer, q, kick string, asked time.Time) {
	t.Helper()
	r := a.Blockers[0].Retry
	if !r.NextRetry.After(asked) {
		t.Errorf("%s: the retry at %v is not after the question (%v): the controller's backoff was not pending", who, r.NextRetry, asked)
	}
	want := nothingLeftToFix(q, r, kick)
	var said bool
	for _, n := range a.Next {
		said = said || n == want
		if strings.HasPrefix(n, whyFix) {
			t.Errorf("%s: next %q asks for the fix already made", who, n)
		}
	}
	if !said {
		t.Errorf("%s: next %q; want %q", who, a.Next, want)
	}
	quota := chainNode(a.Chain.Root, "ResourceQuota", q)
	if want := "has room now: pods: used 0 of hard 2, 1 requested"; quota == nil || quota.Status == why.Refusing || quota.Line != want {
		t.Errorf("%s: quota %+v; want not Refusing, %q", who, quota, want)
	}
}

// chainNode is the first node below n (n included) of kind and name not
// reached a second time; nil when the chain has none.
func chainNode(n *why.Node, kind, name string) *why.Node {
	if n == nil {
		return nil
	}
	if n.Object.Kind == kind && n.Object.Name == name && !n.Seen {
		return n
	}
	for _, c := range n.Below {
		if f := chainNode(c, kind, name); f != nil {
			return f
		}
	}
	return nil
}

// pauseWeb sets Deployment web's spec.paused in ns and waits for its
// controller to observe it. Paused, the deployment controller does not
// sync its rollout status: the ReplicaFailure it copied from the
// ReplicaSet, the first refusal's, stays after the pods are created, as
// it does for a moment unpaused (the moment answer19's newcomer saw).
func pauseWeb(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, paused bool) {
	t.Helper()
	patch := fmt.Sprintf(`{"spec":{"paused":%t}}`, paused)
	d, err := cs.AppsV1().Deployments(ns).Patch(ctx, "web", types.MergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: "kubectl-patch"})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, fmt.Sprintf("the deployment controller observes web paused=%t", paused), func(ctx context.Context) error {
		got, err := cs.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil || got.Status.ObservedGeneration < d.Generation {
			return fmt.Errorf("observed generation %d of %d (%v)", got.Status.ObservedGeneration, d.Generation, err)
		}
		return nil
	})
}

// assertRaisedSince: the pods created after the kick, the quota uses all
// it was raised to ("used 2 of hard 2, 1 requested"), while the paused
// Deployment's ReplicaFailure still says the first refusal (at hard 0):
// the quota is "raised since it refused", not Refusing, and not the fix.
func assertRaisedSince(t *testing.T, q string, answer func(t *testing.T, args ...string) *why.Answer) {
	t.Helper()
	const want = "raised since it refused: pods: hard 0 then, 2 now: room for the 1 requested at used 0 (used 2 now)"
	var a *why.Answer
	eventually(t, 30*time.Second, "why reads the quota raised since it refused", func(context.Context) error {
		a = answer(t, "deployment/web", "-n", q)
		if quota := chainNode(a.Chain.Root, "ResourceQuota", q); quota == nil || quota.Line != want || quota.Status == why.Refusing {
			return fmt.Errorf("quota %+v; want not Refusing, %q (summary %q)", quota, want, a.Summary)
		}
		return nil
	})
	if all := a.Summary + "\n" + strings.Join(a.Next, "\n"); strings.Contains(all, "Change resourcequota/"+q) || strings.Contains(all, "which refuses it") {
		t.Errorf("the raised quota is still the fix:\n%s", all)
	}
}

// watchStamp begins each block `why -w` prints after its first answer:
// "22:50:53  changed  InProgress".
var watchStamp = regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d  \S+  `)

// lastBlock is what `why -w` printed from its last stamped block on; ""
// before it printed one.
func (w *whyWatch) lastBlock() string {
	out := w.out.String()
	all := watchStamp.FindAllStringIndex(out, -1)
	if len(all) == 0 {
		return ""
	}
	return out[all[len(all)-1][0]:]
}

// watchWeb starts `why -w deployment/web -n q` over the quota still
// refusing: its first answer asks for the quota's change.
func watchWeb(t *testing.T, kc *kubectl, admin, q string) *whyWatch {
	t.Helper()
	w := startWhyWatch(t, kc, admin, "deployment/web", "-n", q)
	if out := w.out.String(); !strings.Contains(out, "Change resourcequota/"+q+" -n "+q+", not the object") {
		t.Errorf("why -w's first answer does not ask for the quota's change:\n%s", out)
	}
	return w
}

// awaitBlock waits for `why -w`'s last block to have every one of want and
// none of ban, and returns it.
func (w *whyWatch) awaitBlock(t *testing.T, timeout time.Duration, what string, want, ban []string) string {
	t.Helper()
	var b string
	eventually(t, timeout, "why -w's last block: "+what, func(context.Context) error {
		b = w.lastBlock()
		for _, s := range want {
			if !strings.Contains(b, s) {
				return fmt.Errorf("last block lacks %q:\n%s\n--- all of it ---\n%s", s, b, w.out.String())
			}
		}
		for _, s := range ban {
			if strings.Contains(b, s) {
				return fmt.Errorf("last block says %q:\n%s\n--- all of it ---\n%s", s, b, w.out.String())
			}
		}
		return nil
	})
	return b
}
