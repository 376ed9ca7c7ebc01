package view

import (
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// The cluster-wide view (top -A): the pods of several workloads in one
// table. The header counts them instead of naming each, and gives a row to
// each pod out of reach, so one pod that cannot be read is said where it
// is, and the rest of the view stands.

// MaxUnreachableRows bounds the header rows naming pods out of reach; the
// rest are counted on the last.
const MaxUnreachableRows = 3

// fleet reports whether the view spans several workloads (different
// controllers, not replicas of one), or a cluster-wide session.
func (t *TopModel) fleet() bool {
	if s := t.C.Conn.Session; s != nil && s.ClusterWide() {
		return true
	}
	return t.Overview != nil && workloads(t.Overview.Replicas) > 1
}

// workloads counts the distinct workloads of replicas.
func workloads(reps []inspector.Replica) int {
	seen := map[string]bool{}
	for _, r := range reps {
		seen[r.Workload] = true
	}
	return len(seen)
}

// fleetSummary is the attached line's account of a fleet: how many pods in
// how many workloads, leading, standby and out of reach.
func (t *Top) fleetSummary() string {
	s := &t.C.Styles
	reps := t.Overview.Replicas
	var leading, standby, down int
	for _, r := range reps {
		switch {
		case r.Err != nil:
			down++
		case r.Standby:
			standby++
		case !r.ServerTime.IsZero():
			leading++
		}
	}
	out := fmt.Sprintf("workloads %d · pods %d: ", workloads(reps), len(reps)) + s.OK.Render(fmt.Sprintf("%d leading", leading))
	if standby > 0 {
		out += s.Dim.Render(fmt.Sprintf(", %d standby", standby))
	}
	if down > 0 {
		out += s.Bad.Render(fmt.Sprintf(", %d unreachable", down))
	}
	return out
}

// fleetLines are the header rows under the attached line: the cap on the
// pods attached to, when discovery found more, and one row per pod out of
// reach (name, why), at most maxUnreachableRows.
func (t *Top) fleetLines() []string {
	if !t.fleet() {
		return nil
	}
	s := &t.C.Styles
	var lines []string
	if sess := t.C.Conn.Session; sess != nil {
		if note := sess.CapNote(); note != "" {
			lines = append(lines, s.Warn.Render("⚠ "+note))
		}
	}
	if t.Overview == nil {
		return lines
	}
	var down []inspector.Replica
	for _, r := range t.Overview.Replicas {
		if r.Err != nil {
			down = append(down, r)
		}
	}
	for i, r := range down {
		if i == MaxUnreachableRows-1 && len(down) > MaxUnreachableRows {
			lines = append(lines, s.Bad.Render(fmt.Sprintf("  ✗ %d more pods unreachable", len(down)-i)))
			break
		}
		lines = append(lines, "  "+t.replica(r)) // its state says why, marked
	}
	return lines
}

// headerHeight is how many lines the header takes: the fixed ones, the
// fleet's rows, and the diagnosis's second line when it wraps.
func (t *Top) headerHeight() int {
	return HeaderLines + len(t.fleetLines()) + len(t.DiagnosisLines()) - 1
}
