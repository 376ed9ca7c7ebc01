package why

import (
	"context"
	"fmt"
	"slices"
)

// retryWaits answers for the objects of ans's chain that wait on their
// controller's next retry although something below them is not Current
// either. markBlockers keeps only the deepest objects not Current: a
// ReplicaSet a quota refused, with one Pending pod, "waits for" that pod.
// Yet once the user has raised the quota, what the change waits for is
// the ReplicaSet's key coming off the replicaset-controller's backoff,
// and the kick is what helps now (a real kube-controller-manager: the
// change waited 1m11s, the kick took 3 s). Such a node is one a failure
// of which named an object (the quota, the ServiceAccount) that changed
// after that failure: retryOf decides, as it does for a blocker.
func (a *Asker) retryWaits(ctx context.Context, ans *Answer, answered map[*Node]bool) {
	root := ans.Chain.Root
	var waits []*Answer
	var walk func(n *Node)
	walk = func(n *Node) {
		for _, c := range n.Below {
			walk(c)
		}
		if n.Blocker || n.Seen || n.u == nil || answered[n] || !namesAChange(n) {
			return
		}
		switch n.Status {
		case Current, NotFound, Refusing:
			return
		}
		if n == root {
			if ans.Retry = retryOf(ans, n, a.Hint.program()); ans.Retry != nil {
				n.RetryWait = true
			}
			return
		}
		if len(ans.Blockers)+len(waits) >= maxBlockerAnswers {
			return
		}
		ba := a.askOne(ctx, n.u, n.Object.Resource)
		ba.dropLogNote()
		if ba.Retry = retryOf(ba, n, a.Hint.program()); ba.Retry != nil {
			n.RetryWait = true
			answered[n] = true
			waits = append(waits, ba)
		}
	}
	walk(root)
	// The retry is the answer the user's change waits for: first.
	ans.Blockers = append(waits, ans.Blockers...)
}

// namesAChange reports whether an object n's failures named (the quota,
// the ServiceAccount) has changed: the user's fix, perhaps not yet seen.
func namesAChange(n *Node) bool {
	return slices.ContainsFunc(n.Below, func(c *Node) bool { return c.Named && c.Changed != nil })
}

// retryWaitWords is the chain's part for its root when the root waits on
// its controller's retry (a node below it is said by waitParts).
func retryWaitWords(r *Retry) string {
	return fmt.Sprintf("its controller's next retry, not made since your change to %s", r.Changed.Ref())
}

// retryWaitNodes are a's nodes below the root that wait on their
// controller's retry, each with the retry its blocker answer found.
func retryWaitNodes(a *Answer) map[*Node]*Retry {
	out := map[*Node]*Retry{}
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.RetryWait && n != a.Chain.Root {
			for _, b := range a.Blockers {
				if b.Retry != nil && b.Object.Ref() == n.Object.Ref() {
					out[n] = b.Retry
					break
				}
			}
		}
		for _, c := range n.Below {
			walk(c)
		}
	}
	walk(a.Chain.Root)
	return out
}
