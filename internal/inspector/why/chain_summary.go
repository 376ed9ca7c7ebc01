package why

import (
	"fmt"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// chainSummary is the answer when the chain shows what the object waits
// for: the path to each blocker and the blocker's own line, then the
// blocker's answer (its controller and backoff) as the next steps. An
// object that is its own blocker keeps its own summary.
func chainSummary(a *Answer) (string, []string) {
	c := a.Chain
	blockers := c.Blockers()
	if len(blockers) == 0 || (len(blockers) == 1 && blockers[0] == c.Root) {
		if a.Retry != nil {
			return a.Summary, append([]string{a.Retry.Sentence}, a.Next...)
		}
		return a.Summary, a.Next
	}
	var parts []string
	var next []string
	if a.Retry != nil && c.Root.RetryWait {
		// Its own key waits on a retry the user's change needs: first.
		parts = append(parts, retryWaitWords(a.Retry))
		next = append(next, a.Retry.Sentence)
	}
	parts = append(parts, waitParts(a, blockers)...)
	word := a.Verdict.Status
	if word == Current {
		// Reconciled itself; what it depends on is not (yet) — said, not
		// made its answer.
		next = append(next, fmt.Sprintf("Below it, not Current: %s.", strings.Join(parts, "; and ")))
		return a.Summary, append(next, a.Next...)
	}
	s := fmt.Sprintf("%s: it waits for %s.", word, strings.Join(parts, "; and for "))
	if word == Failed && c.Root.Line != "" {
		// Failed is the object's own judgement (a progress deadline passed):
		// its cause first, then what it waits for.
		s = fmt.Sprintf("%s: %s; it waits for %s.", word, strings.TrimSuffix(c.Root.Line, "."), strings.Join(parts, "; and for "))
	}
	for _, b := range a.Blockers {
		if b.Retry != nil {
			// The answer itself: the user's fix waits for a retry.
			next = append(next, b.Retry.Sentence)
		}
		next = append(next, fmt.Sprintf("%s: %s", b.Object.Ref(), b.Summary))
		next = append(next, b.Next...)
		if s := retryActsOn(a, b); s != "" {
			next = append(next, s)
		}
	}
	for _, b := range blockers {
		switch b.Status {
		case NotFound:
			next = append(next, fmt.Sprintf("Create %s, or correct the reference (%s).", b.Object.Ref(), b.Via))
		case Refusing:
			next = append(next, fmt.Sprintf("Change %s, not the object: %s.", explain.Session{Attach: b.Object.Ref(), AttachFlags: inNamespace(b.Object.Namespace)}.Words(), b.Line))
		}
	}
	return s, onceEach(next)
}

// onceEach is steps with each said once, at its first place: blockers of
// one cause give one step (three Pending pods and no scheduler said "Check
// that a scheduler runs" three times).
func onceEach(steps []string) []string {
	seen := make(map[string]bool, len(steps))
	out := steps[:0:0]
	for _, s := range steps {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// retryActsOn says, when the retry offered for blocker b (its forget or
// kick) is not of the object the user asked about, whose it is and why: a
// controller backs off per key, and the key failing is b's (the
// ReplicaSet's, refused by a quota), not root's (the Deployment's); root
// follows when b succeeds. There is no retry of root's that resets b's
// backoff. "" when b offers no retry.
func retryActsOn(root, b *Answer) string {
	bo := b.Backoff
	if bo == nil || bo.Key == nil || bo.RetryNow == "" || b.Object.Ref() == root.Object.Ref() {
		return ""
	}
	return fmt.Sprintf("That retry is %s's (key %s), not %s's: %s backs off on the key that fails, and %s follows once it succeeds; nothing done to %s resets that backoff.",
		b.Object.Ref(), bo.Key.Key, root.Object.Ref(), controllerWords(bo.Controller), root.Object.Ref(), root.Object.Ref())
}

// waitParts are the chain's parts below the root: each path to a blocker,
// or to a node that waits on its controller's retry (retryWaitNodes), said
// as the tree it is, every object once. Two pods of one ReplicaSet, or a
// ReplicaSet waiting on its retry beside its Pending pod, said as two
// paths from the root, named the ReplicaSet twice ("…; and for
// replicaset.apps/web-1 (owner reference), which waits for …"). Parts
// holding a retry come first: the user's change waits for it.
func waitParts(a *Answer, blockers []*Node) []string {
	c := a.Chain
	on, leaf := map[*Node]bool{}, map[*Node]bool{}
	retry := retryWaitNodes(a)
	mark := func(n *Node) {
		for _, p := range c.Path(n) {
			on[p] = true
		}
	}
	for n := range retry {
		mark(n)
	}
	for _, b := range blockers {
		if b != c.Root {
			mark(b)
			leaf[b] = true
		}
	}
	var first, rest []string
	for _, n := range c.Root.Below {
		if !on[n] {
			continue
		}
		w, retries := nodeWords(n, on, leaf, retry, map[*Node]bool{})
		if retries {
			first = append(first, w)
		} else {
			rest = append(rest, w)
		}
	}
	return append(first, rest...)
}

// nodeWords says node n of a part and what it waits for below it, the
// nodes on a path (on) only: "replicaset.apps/web-1 (owner reference),
// which waits for pod/web-1-a (owner reference), which is InProgress: …,
// and for pod/web-1-b (owner reference), which is …". It reports whether
// a node of it waits on a retry. seen guards a node met twice.
func nodeWords(n *Node, on, leaf map[*Node]bool, retry map[*Node]*Retry, seen map[*Node]bool) (string, bool) {
	seen[n] = true
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)", n.Object.Ref(), n.Via)
	r := retry[n]
	said := r != nil || leaf[n]
	if r != nil {
		fmt.Fprintf(&b, ", whose controller has not retried it since your change to %s", r.Changed.Ref())
	}
	if leaf[n] {
		switch n.Status {
		case NotFound:
			b.WriteString(", which does not exist")
		case Refusing:
			fmt.Fprintf(&b, ", which refuses it: %s", strings.TrimSuffix(n.Line, "."))
		default:
			fmt.Fprintf(&b, ", which is %s: %s", n.Status, strings.TrimSuffix(n.Line, "."))
		}
	}
	var below []string
	retries := r != nil
	for _, k := range n.Below {
		if on[k] && !seen[k] {
			w, kr := nodeWords(k, on, leaf, retry, seen)
			below = append(below, w)
			retries = retries || kr
		}
	}
	if len(below) > 0 {
		join := ", which waits for "
		if said {
			join = ", and waits for " // after its own status or retry
		}
		b.WriteString(join + strings.Join(below, ", and for "))
	}
	return b.String(), retries
}
