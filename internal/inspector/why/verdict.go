package why

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// The rule itself lives in inspector/objstatus, which inspector's key
// detail uses too: one verdict for `why` and `describe`.

// The statuses of an object, as kstatus names them.
const (
	Current     = objstatus.Current
	InProgress  = objstatus.InProgress
	Failed      = objstatus.Failed
	Terminating = objstatus.Terminating
)

// Verdict is what the object itself says about its latest change (see
// objstatus.Verdict).
type Verdict = objstatus.Verdict

// Condition is one entry of status.conditions (see objstatus.Condition).
type Condition = objstatus.Condition

// Change is the latest write to the object's spec (see objstatus.Change).
type Change = objstatus.Change

// Ownership is what managedFields say about who wrote the object (see
// objstatus.Ownership).
type Ownership = objstatus.Ownership

// Judge computes the object's verdict: kstatus, then what kstatus does not
// read (objstatus.Judge).
func Judge(u *unstructured.Unstructured) Verdict { return objstatus.Judge(u) }

// ownershipOf reads managedFields.
var ownershipOf = objstatus.OwnershipOf

// RuleControllerFailing is the Override of an object whose kind has no
// status, judged by its controller's own word on the key.
const RuleControllerFailing = "controller-failing"

// controllerVerdict judges an object whose kind has no status (a ConfigMap
// an operator reconciles) by what its controller says of the key: kstatus
// calls it Current, having nothing to read, while the controller fails on
// it. One verdict, the evidence overriding kstatus and saying so.
func controllerVerdict(a *Answer) {
	v, b := &a.Verdict, a.Backoff
	if !v.KindNoStatus || v.Status != Current || b == nil || b.Key == nil {
		return
	}
	k := b.Key
	from := "its endpoint"
	if b.Source == SourceLogs {
		from = "its log"
	}
	switch k.State {
	case api.StateBackoff:
		v.OverrideBy(InProgress, RuleControllerFailing, fmt.Sprintf("not Current: controller %q is failing on it (%s, from %s); a %s has no status for kstatus to read",
			b.Controller, explain.FailuresText(*k, nil), from, a.Object.Kind))
	case api.StateFailed:
		v.OverrideBy(Failed, RuleControllerFailing, fmt.Sprintf("not Current: controller %q gave up on it (a terminal error, from %s); a %s has no status for kstatus to read",
			b.Controller, from, a.Object.Kind))
	}
}
