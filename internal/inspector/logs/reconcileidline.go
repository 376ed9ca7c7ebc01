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
		s.handledIDs.note(r.ReconcileID, line)
		return false
	}
	h, ok := s.handledIDs.lookup(r.ReconcileID)
	if ok {
		s.noteMerged(line, h)
	}
	return ok
}

// handledIDs are the reconcileIDs of named dialects' failure lines, and
// their lines: a map of the last 4×DefaultMaxKeys or so, started anew past
// that. A log names one for each failure (BenchmarkRead1M's, 300,000)
// and looks one up only for a generic failure line with a reconcileID,
// which most logs have none of: so the IDs are noted in a list, and put
// in the map when one is looked up (or when the list is as long as the
// map may be), in their order, as they were when each went in at once.
// Growing the map to some 300,000 strings was an eighth of the CPU of
// BenchmarkRead1M's parallel read.
type handledIDs struct {
	// noted is the list, in blocks of notedBlock: grown by append, its
	// copies were as large again in garbage.
	noted [][]notedID
	n     int // how many noted
	index map[string]int
}

// notedBlock is how many IDs a block of handledIDs.noted holds.
const notedBlock = 1024

// notedID is a reconcileID noted and its line.
type notedID struct {
	id   string
	line int
}

// note notes id, of the log's line line.
func (h *handledIDs) note(id string, line int) {
	if h.n > 4*DefaultMaxKeys {
		h.catchUp()
	}
	if k := len(h.noted); k == 0 || len(h.noted[k-1]) == notedBlock {
		h.noted = append(h.noted, make([]notedID, 0, notedBlock))
	}
	b := &h.noted[len(h.noted)-1]
	*b = append(*b, notedID{id, line})
	h.n++
}

// lookup is the line of id's failure line, if one was noted.
func (h *handledIDs) lookup(id string) (int, bool) {
	h.catchUp()
	line, ok := h.index[id]
	return line, ok
}

// catchUp puts the noted IDs in the map.
func (h *handledIDs) catchUp() {
	for _, b := range h.noted {
		for _, n := range b {
			if h.index == nil || len(h.index) > 4*DefaultMaxKeys {
				h.index = map[string]int{}
			}
			h.index[n.id] = n.line
		}
	}
	h.noted, h.n = nil, 0
}
