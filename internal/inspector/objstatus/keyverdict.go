package objstatus

import "fmt"

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
// overrides kstatus and says so. One rule for every view of the object
// (`why`, `describe`, the TUI's key detail), so that none says Current on
// a key with 14 failures while another says InProgress.
func (v *Verdict) JudgeKey(kind string, w KeyWord) {
	if !v.KindNoStatus || v.Status != Current {
		return
	}
	switch {
	case w.Failing:
		v.override(InProgress, RuleControllerFailing, fmt.Sprintf("not Current: controller %q is failing on it (%s, from %s); a %s has no status for kstatus to read",
			w.Controller, w.Failures, w.From, kind))
	case w.GaveUp:
		v.override(Failed, RuleControllerFailing, fmt.Sprintf("not Current: controller %q gave up on it (a terminal error, from %s); a %s has no status for kstatus to read",
			w.Controller, w.From, kind))
	case w.Quiet:
		v.override(Unknown, RuleControllerQuiet, fmt.Sprintf("not known: controller %q last failed on it (%s, from %s) and has not been seen on it since its retry was due: it may have succeeded, which its log does not show; a %s has no status for kstatus to read",
			w.Controller, w.Failures, w.From, kind))
	}
}

// StatusWord is the status as every view says it: with kstatus's own word
// beside it when evidence overrode it ("InProgress (kstatus alone: Current)").
func StatusWord(v Verdict) string {
	if v.Override != "" && v.KStatus != "" && v.KStatus != v.Status {
		return fmt.Sprintf("%s (kstatus alone: %s)", v.Status, v.KStatus)
	}
	return v.Status
}
