package why

import (
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// conflicted reports whether b's key last failed on the API server's
// optimistic-concurrency refusal ("Operation cannot be fulfilled on
// deployments.apps "web": the object has been modified; please apply your
// changes to the latest version and try again"). The controller's next
// retry reads the object again and resolves it: such a failure blocks
// nothing, and no change of the user's waits for it.
func conflicted(b *Backoff) bool {
	return b != nil && b.Key != nil && b.Key.LastError != nil && api.IsWriteConflict(b.Key.LastError.Message)
}

// blockingBackoff makes the backoff of ans the one that blocks it when
// its own key's last failure was a conflict: the key of the blocker
// answered below it that its controller backs off on (a Deployment's
// ReplicaSet a quota refused, 14 failures in). On a real
// kube-controller-manager, why showed the Deployment's key, "unknown",
// with the deployment controller's conflict as its last error, and
// offered to kick the Deployment, which resets nothing: the
// replicaset-controller backs off on the ReplicaSet's key. The Note says
// whose key it is, and what became of the object's own.
func blockingBackoff(ans *Answer) {
	own := ans.Backoff
	if !conflicted(own) {
		return
	}
	for _, b := range ans.Blockers {
		bb := b.Backoff
		if bb == nil || bb.Key == nil || bb.Key.Failures == 0 || conflicted(bb) || b.Object.Ref() == ans.Object.Ref() {
			continue
		}
		moved := *bb
		note := fmt.Sprintf("the key that fails is %s's (controller %s); %s's own key %s (controller %s) last failed on a write conflict at %s (the object has been modified), which its retry resolves",
			b.Object.Ref(), bb.Controller, ans.Object.Ref(), own.Key.Key, own.Controller, text.TimeOfDay(own.Key.LastError.At))
		if bb.Note != "" {
			note += "; " + bb.Note
		}
		moved.Note = note
		ans.Backoff, ans.backoffFrom = &moved, b.Object.Ref()
		return
	}
}
