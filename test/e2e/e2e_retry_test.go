//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// quiet is how long the replicaset controller must be sure to stay away
// from the key after the quota is raised: time to ask `why` twice and kick.
const quiet = 20 * time.Second

// queueDelay is the replicaset controller's queue delay after its n-th
// failure (DefaultTypedControllerRateLimiter: 5ms·2^(n-1), at most 1000s).
func queueDelay(n int32) time.Duration {
	return min(5*time.Millisecond<<max(n-1, 0), 1000*time.Second)
}

// testQuotaRaised is the seed's own case on the real
// kube-controller-manager: the user raises the quota after the last
// failure; the replicaset controller does not watch ResourceQuotas, so
// `why` says the change waits for its next retry and suggests the kick;
// the kick brings the pods before that retry.
func testQuotaRaised(ctx context.Context, t *testing.T, kc *kubectl, admin string, cs kubernetes.Interface, q, rs string,
	answer, hidden func(t *testing.T, args ...string) *why.Answer) {
	// Started before the quiet wait, to take none of it.
	w := watchWeb(t, kc, admin, q)
	awaitQuiet(t, cs, q, rs)
	quota, err := cs.CoreV1().ResourceQuotas(q).Get(ctx, q, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	quota.Spec.Hard[corev1.ResourcePods] = resource.MustParse("2")
	if _, err := cs.CoreV1().ResourceQuotas(q).Update(ctx, quota, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	raised := time.Now()
	eventually(t, 10*time.Second, "the resourcequota controller takes the new hard", func(ctx context.Context) error {
		rq, err := cs.CoreV1().ResourceQuotas(q).Get(ctx, q, metav1.GetOptions{})
		if err != nil || rq.Status.Hard.Pods().Value() != 2 {
			return fmt.Errorf("status.hard %v (%v)", rq.Status.Hard, err)
		}
		return nil
	})

	kick := "kubectl backoff kick --kind ReplicaSet.apps " + q + "/" + rs
	var r *why.Retry
	// The same sentence from the pod's log and, hidden, from the file.
	for i, ask := range []func(t *testing.T, args ...string) *why.Answer{answer, hidden} {
		asked := time.Now()
		a := ask(t, "deployment/web", "-n", q)
		if len(a.Blockers) != 1 || a.Blockers[0].Retry == nil {
			t.Fatalf("blockers' answers %+v, next %q; want the ReplicaSet's, with the retry sentence", a.Blockers, a.Next)
		}
		r = a.Blockers[0].Retry
		for _, want := range []string{"Your change to resourcequota/" + q + " at ", "came after the last failure",
			"The replicaset-controller does not watch ResourceQuotas: it will see the change at its next retry", "from its log", "Retry now: `" + kick + "`"} {
			if !strings.Contains(r.Sentence, want) {
				t.Errorf("sentence %q lacks %q", r.Sentence, want)
			}
		}
		if r.Watches != "no" || r.NextRetry.IsZero() || !r.ChangedAt.After(r.LastFailure) {
			t.Errorf("retry %+v; want watches no, a next retry, the change after the last failure", r)
		}
		assertFixMade(t, []string{"admin", "hidden"}[i], a, q, kick, asked)
	}
	if pods, _ := cs.CoreV1().Pods(q).List(ctx, metav1.ListOptions{}); len(pods.Items) != 0 {
		t.Fatalf("%d pods before the kick: the controller retried already; the sentence was %q", len(pods.Items), r.Sentence)
	}
	out := kc.ok(t, admin, "backoff", "why", "deployment/web", "-n", q)
	t.Logf("why deployment/web (quota raised):\n%s", out)
	if !strings.Contains(out, "Retry now: `"+kick+"`") || !strings.Contains(out, "Nothing left to fix: its error came before your change to resourcequota/"+q+". Wait for its retry at ") {
		t.Errorf("why lacks the kick, or nothing left to fix")
	}

	// The watch says the raise: a new block, the fix not asked again.
	w.awaitBlock(t, 15*time.Second, "the quota raised, nothing left to fix", []string{"> Nothing left to fix: its error came before your change to resourcequota/" + q}, []string{"> " + whyFix})
	// Paused, the Deployment keeps the first refusal's ReplicaFailure
	// after the kick: the quota is read raised since it refused.
	pauseWeb(ctx, t, cs, q, true)
	kc.ok(t, admin, strings.Fields(strings.TrimPrefix(kick, "kubectl "))...)
	eventually(t, 15*time.Second, "the kicked ReplicaSet creates its pods", func(ctx context.Context) error {
		pods, err := cs.CoreV1().Pods(q).List(ctx, metav1.ListOptions{})
		if err != nil || len(pods.Items) != 2 {
			return fmt.Errorf("%d pods (%v)", len(pods.Items), err)
		}
		return nil
	})
	// The queue's own retry would come 5ms·2^(n-1) after the last failure;
	// the kick beat it by this much.
	t.Logf("pods %v after the raise; the controller's own retry was estimated at %v (%s)", time.Since(raised).Round(time.Millisecond), r.NextRetry, r.Basis)
	assertRaisedSince(t, q, answer)
	// The watch ends on the answer without the quota, though the paused
	// Deployment's ReplicaFailure still names it: the ReplicaSet's Pending
	// pods (answer19's newcomer saw it stop on "Change resourcequota/q …
	// used 2 of hard 2", the condition cleared a moment later unseen).
	b := w.awaitBlock(t, time.Minute, "the pods created, Pending", []string{"pod/" + rs + "-", "Pending"}, []string{"resourcequota/" + q, "Nothing left to fix"})
	t.Logf("why -w deployment/web -n %s, its last block:\n%s", q, b)
	w.interrupt(t)
	pauseWeb(ctx, t, cs, q, false)
}

// awaitQuiet waits until the replicaset controller's next retry of rs is
// at least quiet away, counting one failure fewer than the events do (the
// first failure's status update enqueues the key once more, unrated).
func awaitQuiet(t *testing.T, cs kubernetes.Interface, ns, rs string) {
	t.Helper()
	eventually(t, 2*time.Minute, fmt.Sprintf("the next retry of %s at least %v away", rs, quiet), func(ctx context.Context) error {
		n, last, err := failedCreates(ctx, cs, ns, rs)
		// Two seconds after it at least: managedFields' times are whole
		// seconds, and a change in the failure's second is not said after it.
		if next := last.Add(queueDelay(n - 1)); err != nil || time.Until(next) < quiet || time.Since(last) < 2*time.Second {
			return fmt.Errorf("%d FailedCreate, the latest at %v: next retry by %v (%v)", n, last, next, err)
		}
		return nil
	})
}

// failedCreates is the count and latest time of rs's FailedCreate events.
func failedCreates(ctx context.Context, cs kubernetes.Interface, ns, rs string) (int32, time.Time, error) {
	return eventsOf(ctx, cs, ns, rs, "FailedCreate")
}

// eventsOf is how many times the events of reason about object name in ns
// were recorded (an event's count, repeats folded into one), and the
// latest time.
func eventsOf(ctx context.Context, cs kubernetes.Interface, ns, name, reason string) (int32, time.Time, error) {
	sel := fields.Set{"involvedObject.name": name, "reason": reason}.AsSelector().String()
	l, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: sel})
	if err != nil {
		return 0, time.Time{}, err
	}
	var n int32
	var last time.Time
	for _, e := range l.Items {
		n += max(e.Count, 1)
		if e.LastTimestamp.After(last) {
			last = e.LastTimestamp.Time
		}
	}
	return n, last, nil
}
