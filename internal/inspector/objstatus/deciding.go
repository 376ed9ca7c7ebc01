package objstatus

import (
	"fmt"
	"strings"
)

// healthy are the conditions whose False says the object is not well
// (kstatus's and the projects' own: Ready, Available, Synced, Healthy).
var healthy = map[string]bool{"Ready": true, "Available": true, "Synced": true, "Healthy": true}

// Deciding is the condition that says what is wrong, if any: one whose True
// says a failure (ReplicaFailure, Stalled, a namespace's
// NamespaceDeletionDiscoveryFailure, …Remaining), else Progressing=False
// (ProgressDeadlineExceeded), else a healthy one that is False with a
// message, else Progressing=False for another reason.
// Its message is the cause, and is never cut in its middle.
func Deciding(conds []Condition) (Condition, bool) {
	for _, c := range conds {
		if c.Message != "" && failureCondition(c) {
			return c, true
		}
	}
	// A deadline passed is kstatus' Failed: it decides over Available=False,
	// which only says the pods are not there yet.
	for _, c := range conds {
		if c.Status == "False" && c.Message != "" && c.Type == "Progressing" && c.Reason == "ProgressDeadlineExceeded" {
			return c, true
		}
	}
	for _, c := range conds {
		if c.Status == "False" && c.Message != "" && healthy[c.Type] {
			return c, true
		}
	}
	for _, c := range conds {
		if c.Status == "False" && c.Message != "" && c.Type == "Progressing" {
			return c, true
		}
	}
	return Condition{}, false
}

// failing reports a condition type whose True is a failure.
func failing(t string) bool {
	if t == "Stalled" || t == "Degraded" {
		return true
	}
	for _, suffix := range []string{"Failure", "Failed", "Error", "Remaining"} {
		if strings.HasSuffix(t, suffix) {
			return true
		}
	}
	return false
}

// Said is the condition as an answer says it: TYPE=STATUS (REASON): MESSAGE.
func (c Condition) Said() string {
	s := fmt.Sprintf("%s=%s", c.Type, c.Status)
	if c.Reason != "" {
		s += " (" + c.Reason + ")"
	}
	return s + ": " + strings.TrimSuffix(oneLine(c.Message), ".")
}
