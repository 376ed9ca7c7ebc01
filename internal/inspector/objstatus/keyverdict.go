package objstatus

import (
	"cmp"
	"fmt"
)

// RuleControllerFailing is the Override of an object whose kind has no
// status, judged by its controller's own word on the key (JudgeKey).
const RuleControllerFailing = "controller-failing"

// RuleControllerQuiet is the Override of an object whose kind has no
// status, whose controller last failed on its key and then went quiet past
// the retry it predicted (KeyWord.Quiet).
const RuleControllerQuiet = "controller-quiet"

// KeyWord is what the object's controller says of its key: failing on it
// (backing off) or given up on it (a terminal error), the controller's
// name, its failures in words ("13 consecutive failures", "24 failures
// logged") and where it was read ("its endpoint", "its log"). The callers
// read it off the key's state: this package stays below the wire types.
type KeyWord struct {
	Failing, GaveUp bool
	// Permanent says the key's last error reads as one no retry mends (a
	// denial by an admission policy, a validation error): failing on it,
	// the controller has failed to apply the object, whatever its retries.
	Permanent bool
	// Stopped is how a controller that stopped retrying did (GaveUp):
	// "gave up on it after 5 failures", "failed on it with a terminal
	// error"; empty, "gave up on it".
	Stopped string
	// Quiet is a key its controller's log last showed failing and has
	// not shown since its retry was due: it may have succeeded, which a
	// log at the default verbosity does not show.
	Quiet      bool
	Controller string
	Failures   string
	From       string
}

// JudgeKey weighs the controller's word on the key: a kind without status
// (a ConfigMap an operator reconciles) is Current to kstatus, which has
// nothing to read, while its controller fails on it. The evidence
// overrides kstatus and says so: InProgress while the controller retries
// an error that may pass, Failed when its error is one no retry mends or
// it stopped retrying. One rule for every view of the object
// (`why`, `describe`, the TUI's key detail), so that none says Current on
// a key with 14 failures while another says InProgress.
func (v *Verdict) JudgeKey(kind string, w KeyWord) {
	if !v.KindNoStatus || v.Status != Current {
		return
	}
	switch {
	case w.Failing && w.Permanent:
		// As Crossplane's Synced=False (ReconcileError) is Failed: the
		// controller cannot apply the object and says why; its retries
		// meet the same refusal (a ClusterRole the aggregation controller
		// may not write, kube-controller-manager's log, batch14/1440).
		v.override(Failed, RuleControllerFailing, fmt.Sprintf("not Current: controller %q is failing on it (%s, from %s) on an error no retry mends; a %s has no status for kstatus to read",
			w.Controller, w.Failures, w.From, kind))
	case w.Failing:
		v.override(InProgress, RuleControllerFailing, fmt.Sprintf("not Current: controller %q is failing on it (%s, from %s); a %s has no status for kstatus to read",
			w.Controller, w.Failures, w.From, kind))
	case w.GaveUp:
		v.override(Failed, RuleControllerFailing, fmt.Sprintf("not Current: controller %q %s (from %s); a %s has no status for kstatus to read",
			w.Controller, cmp.Or(w.Stopped, "gave up on it"), w.From, kind))
	case w.Quiet:
		v.override(Unknown, RuleControllerQuiet, fmt.Sprintf("not known: controller %q last failed on it (%s, from %s) and has not been seen on it since its retry was due: it may have succeeded, which its log does not show; a %s has no status for kstatus to read",
			w.Controller, w.Failures, w.From, kind))
	}
}

// readiness is what each status says of the object, in words no key's
// state uses: a key's "failed" is "terminal, not retried", and "Object
// Failed" beside a key in backoff read as the key's (newcomer ui11).
var readiness = map[string]string{
	Current:     "ready",
	InProgress:  "not ready yet",
	Failed:      "not ready",
	Terminating: "being deleted",
	Unknown:     "readiness unknown",
}

// ObjectWords is the object's status as every view says it (why's and
// describe's lines, the TUI's): what it means for the object, the verdict's
// word in brackets (the word -o json's verdict.status holds, kept for
// who greps it), and, when evidence overrode kstatus, what kstatus alone
// would say, glossed ("not ready (Failed); kstatus, which reads only its
// conditions, would say Current"): a kubectl user does not know kstatus,
// and "InProgress (kstatus alone: Current)" told them nothing of either.
func ObjectWords(v Verdict) string {
	s := v.Status
	if r, ok := readiness[v.Status]; ok {
		s = r + " (" + v.Status + ")"
	}
	if v.Override != "" && v.KStatus != "" && v.KStatus != v.Status {
		s += "; kstatus, which reads only its conditions, would say " + v.KStatus
	}
	return s
}
