package logs

import (
	"encoding/binary"
	"strings"
)

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
	// texts are the noted IDs that are no UUID, copies, in their order.
	texts []string
	// index is the map: of the IDs that are UUIDs as controller-runtime
	// writes them by their 16 bytes (uuids), of any other by its text
	// (others); the two hold no ID in common, and are started anew
	// together.
	uuids  map[uuidID]int
	others map[string]int
}

// notedBlock is how many IDs a block of handledIDs.noted holds.
const notedBlock = 1024

// notedID is a reconcileID noted and its line: its 16 bytes when it is a
// UUID (uuidOf); when not, its text is handledIDs.texts[i], i in the first
// bytes of uuid, and line is ^line (line is never negative). No string of a
// record is kept: a record's ID is made in a block of others
// (shortstrings.go), which a list of 400,000 would keep alive. And no
// string at all: with one for the rare ID that is no UUID, a block was 40
// KB, not 24, of which the collector read every word for a pointer.
type notedID struct {
	uuid uuidID
	line int
}

// note notes id, of the log's line line. An empty ID names no reconcile,
// and is not noted (no caller notes one: a record without a reconcileID
// is not looked up by it).
func (h *handledIDs) note(id string, line int) {
	if id == "" {
		return
	}
	if h.n > 4*DefaultMaxKeys {
		h.catchUp()
	}
	if k := len(h.noted); k == 0 || len(h.noted[k-1]) == notedBlock {
		h.noted = append(h.noted, make([]notedID, 0, notedBlock))
	}
	n := notedID{line: line}
	var ok bool
	if n.uuid, ok = uuidOf(id); !ok {
		binary.LittleEndian.PutUint64(n.uuid[:], uint64(len(h.texts)))
		h.texts = append(h.texts, strings.Clone(id))
		n.line = ^line
	}
	b := &h.noted[len(h.noted)-1]
	*b = append(*b, n)
	h.n++
}

// lookup is the line of id's failure line, if one was noted.
func (h *handledIDs) lookup(id string) (int, bool) {
	if id == "" {
		return 0, false
	}
	h.catchUp()
	if u, ok := uuidOf(id); ok {
		line, ok := h.uuids[u]
		return line, ok
	}
	line, ok := h.others[id]
	return line, ok
}

// catchUp puts the noted IDs in the map.
func (h *handledIDs) catchUp() {
	for _, b := range h.noted {
		for _, n := range b {
			if h.uuids == nil || len(h.uuids)+len(h.others) > 4*DefaultMaxKeys {
				h.uuids, h.others = map[uuidID]int{}, map[string]int{}
			}
			if n.line >= 0 {
				h.uuids[n.uuid] = n.line
			} else {
				h.others[h.texts[binary.LittleEndian.Uint64(n.uuid[:])]] = ^n.line
			}
		}
	}
	h.noted, h.n, h.texts = nil, 0, nil
}

// uuidID is a UUID's 16 bytes.
type uuidID [16]byte

// uuidOf is id's 16 bytes when id is a UUID as controller-runtime writes
// it (types.UID of uuid.New: 36 bytes, lowercase hex, dashes after the
// 8th, 12th, 16th and 20th digit): two such IDs are the same text exactly
// when they are the same bytes. Any other text is not one.
func uuidOf(id string) (u uuidID, ok bool) {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' {
		return u, false
	}
	// Each pair at its constant place (no loop, no bounds check: a
	// failure line's ID is read on every one, BenchmarkRead1M's 300,000);
	// a byte no lowercase hex digit is 255, which leaves bad above 15.
	var bad byte
	pair := func(i int) byte {
		hi, lo := lowerHex[id[i]], lowerHex[id[i+1]]
		bad |= hi | lo
		return hi<<4 | lo
	}
	u = uuidID{
		pair(0), pair(2), pair(4), pair(6),
		pair(9), pair(11),
		pair(14), pair(16),
		pair(19), pair(21),
		pair(24), pair(26), pair(28), pair(30), pair(32), pair(34),
	}
	if bad > 15 {
		return uuidID{}, false
	}
	return u, true
}

// lowerHex is a byte's value as a lowercase hex digit; 255 for none.
var lowerHex = func() (t [256]byte) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = byte(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		default:
			t[c] = 255
		}
	}
	return t
}()
