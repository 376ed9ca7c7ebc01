package objstatus

import (
	"fmt"
	"strings"
	"time"
)

// GenerationLine says whether the latest change has been seen: the
// generation, who changed it when (c, nil when managedFields say nothing),
// and what the controller has observed. ago words a past time ("12m0s
// ago"): each caller words times its own way. An object without a
// generation (a ConfigMap: the API server keeps none for kinds without a
// spec) is not said to be at generation 0.
func GenerationLine(v Verdict, c *Change, ago func(time.Time) string) string {
	var head []string
	if v.Generation != 0 {
		head = append(head, fmt.Sprintf("generation %d", v.Generation))
	}
	if c != nil {
		head = append(head, fmt.Sprintf("changed %s by %s", ago(c.Time), c.Manager))
	}
	tail := observedText(v)
	if len(head) == 0 {
		return tail
	}
	return strings.Join(head, ", ") + "; " + tail
}

// observedText says what the controller has observed of the generation.
func observedText(v Verdict) string {
	switch {
	case v.NeverReconciled:
		return "the controller has never reconciled it (observedGeneration -1)"
	case v.NotReconciled:
		return "no controller has written its status yet"
	case v.ObservedGeneration != nil:
		return fmt.Sprintf("the controller has observed %d", *v.ObservedGeneration)
	case v.KindNoStatus:
		return "the kind has no status, so it cannot say whether a controller has seen the change"
	case v.NoStatus:
		return "it has no status"
	case conditionsObserved(v) > 0:
		// Cluster API's v1beta2 kinds and others record the generation per
		// condition: the kind has an observed generation, there.
		return fmt.Sprintf("its conditions say the controller has observed %d", conditionsObserved(v))
	}
	return "the kind has no status.observedGeneration"
}

// Line is the verdict in one line: the status in words (ObjectWords), then
// GenerationLine.
func Line(v Verdict, c *Change, ago func(time.Time) string) string {
	return ObjectWords(v) + ": " + GenerationLine(v, c, ago)
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
