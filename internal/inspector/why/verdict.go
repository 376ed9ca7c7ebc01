package why

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

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
	Unknown     = objstatus.Unknown
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
// status, judged by its controller's own word on the key (objstatus.JudgeKey).
const RuleControllerFailing = objstatus.RuleControllerFailing

// controllerVerdict judges an object whose kind has no status (a ConfigMap
// an operator reconciles) by what its controller says of the key, by the
// rule describe and the TUI use too (objstatus.Verdict.JudgeKey).
func controllerVerdict(a *Answer) {
	b := a.Backoff
	if b == nil || b.Key == nil {
		return
	}
	from := "its endpoint"
	if b.Source == SourceLogs {
		from = "its log"
	}
	a.Verdict.JudgeKey(a.Object.Kind, explain.KeyWord(*b.Key, nil, b.Controller, from))
}
