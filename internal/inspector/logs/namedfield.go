package logs

import (
	"strconv"
	"strings"
)

// A handler that fails on an object often says so in its own words, with
// no failure phrase the generic reader knows and no retry word: it names
// the object's kind in the message and puts the object in a field of that
// kind's name, the error in its error field. kube-controller-manager's
// PVC protection controller logs `"Error removing protection finalizer
// from PVC" err="…" PVC="vault/audit-log-0"` at error level, then returns
// the error to processNextWorkItem, which says it again through
// HandleError under a key it prints reversed ("PVC audit-log-0/vault
// failed with: ERR", batch14/1440) and AddRateLimited's the key. Such a
// line's words do not say the attempt failed (a reconciler may log an
// error and return nil), so it is only a candidate: the log's structure
// decides (evidence.go) — a work queue's growing gaps admit its template,
// a poll's equal gaps veto it, and one line alone is not read.

// namedFieldCandidate reads msg, a message with no failure, retry or drop
// words, as such a candidate: at error or warning level, with an error
// field, one key field (a namespace/name) whose name is a word of the
// message. It returns false for any other line.
func (f *fields) namedFieldCandidate(msg string) (Record, bool) {
	if !f.severe || f.bare || f.err == "" || f.keyFields != 1 || f.keyFieldName == "" {
		return Record{}, false
	}
	if !namesWord(msg, f.keyFieldName) {
		return Record{}, false
	}
	r := Record{What: ErrorLine, At: f.at, Dialect: genericName, ClientGoQueue: true, Error: f.err}
	r.Namespace, r.Name = splitRef(f.keyField)
	if r.Name == "" {
		return Record{}, false
	}
	r.Controller = f.kcmController(f.genericController(msg, 0, -1), false)
	r.Template = template(msg)
	r.Message = strconv.Quote(msg)
	lacks := "names its object's kind (" + strconv.Quote(f.keyFieldName) + ") and carries an error, the object in a field of that name, " +
		"but does not say that the attempt failed, will retry or gave up"
	r.Candidate, r.NotRead, r.Tried, r.Bare = true, lacks, msg, true
	return r, true
}

// namesWord says msg holds word as a word of its own, case aside ("PVC" in
// "… from PVC", not in "PVCs").
func namesWord(msg, word string) bool {
	for w := range strings.FieldsSeq(msg) {
		if strings.EqualFold(strings.Trim(w, `"'.,;:()[]`), word) {
			return true
		}
	}
	return false
}
