package objstatus

import (
	"fmt"
	"strings"
	"time"
)

// GenerationLine says whether the latest change has been seen: the
// generation, who changed it when (c, nil when managedFields say nothing),
// and what the controller has observed. ago words a past time ("12m00s
// ago"): each caller words times its own way.
func GenerationLine(v Verdict, c *Change, ago func(time.Time) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "generation %d", v.Generation)
	if c != nil {
		fmt.Fprintf(&b, ", changed %s by %s", ago(c.Time), c.Manager)
	}
	switch {
	case v.NeverReconciled:
		b.WriteString("; the controller has never reconciled it (observedGeneration -1)")
	case v.NotReconciled:
		b.WriteString("; no controller has written its status yet")
	case v.ObservedGeneration != nil:
		fmt.Fprintf(&b, "; the controller has observed %d", *v.ObservedGeneration)
	case v.KindNoStatus:
		b.WriteString("; the kind has no status, so it cannot say whether a controller has seen the change")
	case v.NoStatus:
		b.WriteString("; it has no status")
	case conditionsObserved(v) > 0:
		// Cluster API's v1beta2 kinds and others record the generation per
		// condition: the kind has an observed generation, there.
		fmt.Fprintf(&b, "; its conditions say the controller has observed %d", conditionsObserved(v))
	default:
		b.WriteString("; the kind has no status.observedGeneration")
	}
	return b.String()
}

// Line is the verdict in one line: the status, then GenerationLine.
func Line(v Verdict, c *Change, ago func(time.Time) string) string {
	return StatusWord(v) + ": " + GenerationLine(v, c, ago)
}

// conditionsObserved is the newest generation v's conditions say was
// observed, or 0 when none says.
func conditionsObserved(v Verdict) int64 {
	var g int64
	for _, c := range v.Conditions {
		g = max(g, c.ObservedGeneration)
	}
	return g
}
