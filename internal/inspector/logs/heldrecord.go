package logs

import (
	"bytes"
	"time"
	"unsafe"
)

// A saved read holds up to holdCap records before it applies them
// (order.go): 16,384 of them, each copied in and read back out of a
// buffer of their own. A Record is 496 bytes, more than half of them
// fields that few lines set (a forget's keys, a queue's items, the generic
// reader's template and line, a stated retry's words): held whole, the
// buffer was 9 MB (Record was 536 bytes then), written and read back
// once a record, pushing the keys' entries out of the cache. So a held record
// keeps Record's first fields, those most lines set (heldFields, 232
// bytes), copied at once, and the whole Record apart, in a second buffer
// (ordering.wholes), only when it sets one of the others.

// heldFields are Record's fields from What to Finished, in its order:
// the first 232 bytes of a Record are a heldFields
// (TestHeldFieldsAreRecordsFirst).
type heldFields struct {
	What                                                      What
	At                                                        time.Time
	Controller, Group, Kind, Namespace, Name                  string
	ReconcileID, Error                                        string
	Terminal                                                  bool
	RequeueAfter                                              time.Duration
	Sampled, Yearless, GaveUp                                 bool
	Dialect, Message, Tried                                   string
	Bare, ClientGoQueue, Requeue, Verbose, Candidate          bool
	KeyFromAttempt, KnownOnly, ViaHandleError, ErrorIsMessage bool
	Finished                                                  bool
}

// restZero is as long as the fields of a Record after its heldFields, all
// zero.
var restZero [unsafe.Sizeof(Record{}) - unsafe.Sizeof(heldFields{})]byte

// first is r's heldFields: its first bytes.
func first(r *Record) *heldFields { return (*heldFields)(unsafe.Pointer(r)) }

// setsOther says whether r sets a field after its heldFields: whether any
// of their bytes is not zero (a field added to Record is one of them).
func setsOther(r *Record) bool {
	all := unsafe.Slice((*byte)(unsafe.Pointer(r)), unsafe.Sizeof(Record{}))
	return !bytes.Equal(all[unsafe.Sizeof(heldFields{}):], restZero[:])
}

// keep puts r in h: its heldFields, and the whole of it in o.wholes when
// it sets another field.
func (o *ordering) keep(h *heldRecord, r *Record) {
	h.f = *first(r)
	h.whole = 0
	if setsOther(r) {
		o.wholes = append(o.wholes, *r)
		h.whole = int32(len(o.wholes))
	}
}

// record puts h's record in r, its time h's (redateHeldLocked may have
// moved it).
func (o *ordering) record(h *heldRecord, r *Record) {
	if h.whole > 0 {
		*r = o.wholes[h.whole-1]
		r.At = h.f.At
		return
	}
	*r = Record{}
	*first(r) = h.f
}

// release clears h, applied, and its whole if it has one: their strings
// are the store's now, or garbage. A slot at a time, while it is in the
// cache: cleared at once after the batch, the buffers were read from
// memory once more.
func (o *ordering) release(h *heldRecord) {
	if h.whole > 0 {
		o.wholes[h.whole-1] = Record{}
	}
	*h = heldRecord{}
}
