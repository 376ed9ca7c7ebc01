package why

import "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"

// recurringSteps are the steps for an object whose own failure events
// recur and whose controller's backoff was not read (kube-controller-
// manager's queue is read only from its log, --from-logs): the events say
// what the controller's retries keep hitting, so a fix they name is given
// without the log. A Job refused by Pod Security got its FailedCreate
// event and no step. Nil when no event names a fix known here.
func recurringSteps(a *Answer, prog string) []string {
	for _, f := range a.Verdict.Failures {
		if !f.Event {
			continue
		}
		fix := podSecurityFix(a.Object, f.Message) // podsecurity.go
		if fix == "" {
			continue
		}
		kick := command(prog, kickKind(a.Object.groupKind(), a.Object.Key), explain.Session{})
		return []string{fix, "Then retry at once: " + quoted(kick) +
			"   (touches the object so that its watch retries it now; otherwise its controller retries on its own, as its backoff allows)"}
	}
	return nil
}
