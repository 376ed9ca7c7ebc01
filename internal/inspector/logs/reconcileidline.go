package logs

// A line that carries controller-runtime's reconcileID was logged inside a
// Reconcile: reconcileHandler (pkg/internal/controller/controller.go, v0.25)
// adds reconcileID to the logger it puts in Reconcile's context, and the
// reconciler's own lines inherit it. Such a line says what went wrong in the
// attempt, not how the attempt ended: reconcileHandler itself logs
// "Reconciler error" (with the same reconcileID) when, and only when,
// Reconcile returns an error, then AddRateLimited; a Reconcile that logs
// "error reconciling datasource" at ERROR and returns RequeueAfter
// (grafana-operator v5, batch6/110) is a timed poll, Forget then AddAfter,
// with no failure to count. So such a line that opens with the failure but
// says no retry or drop (Record.Bare) is not read by its words: it is a
// candidate, counted once with its attempt's "Reconciler error" when that
// follows (attempt.go), its error the attempt's when only controller-runtime's
// "Warning: Reconciler returned both …" follows (a paste cut before the
// handler's line: innercause.go), and otherwise read as failures only when its
// template's times show a rate limiter's growing gaps (evidence.go: a
// Reconcile that returns Requeue: true and no error is rate-limited too).

// insideReconcile is what a bare line with a reconcileID lacks.
const insideReconcile = `opens with the failure, but was logged inside Reconcile (it carries controller-runtime's reconcileID): ` +
	`controller-runtime logs an attempt's failure itself, "Reconciler error" with the same reconcileID, ` +
	`only when Reconcile returns an error, and a Reconcile that logs an error and returns RequeueAfter is a timed poll`

// reconcileIDLocked takes a failure r with a reconcileID, of the log's line
// line: a named dialect's ("Reconciler error") is noted; a generic line of
// an attempt whose "Reconciler error" was already applied is that
// attempt's inner line, merged there (it says whether so). Its template's
// evidence may admit such a line after its attempt's handler line was read
// (KubeRay's "Error reconcile resources", batch16/1621–1622), too late for
// the wait of attempt.go.
func (s *Store) reconcileIDLocked(r *Record, line int) bool {
	if r.Dialect != genericName {
		if s.handledIDs == nil || len(s.handledIDs) > 4*DefaultMaxKeys {
			s.handledIDs = map[string]int{}
		}
		s.handledIDs[r.ReconcileID] = line
		return false
	}
	h, ok := s.handledIDs[r.ReconcileID]
	if ok {
		s.noteMerged(line, h)
	}
	return ok
}
