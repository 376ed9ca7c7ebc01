package logs

import (
	"reflect"
	"testing"
	"time"
)

// TestHeldRecordKeepsEveryField: a record held for time order comes back
// as it went in, whichever of its fields it sets, one or all: a field
// added to Record is kept by heldFields or told by setsOther, or this
// fails.
func TestHeldRecordKeepsEveryField(t *testing.T) {
	rt := reflect.TypeFor[Record]()
	var all Record
	for i := range rt.NumField() {
		var r Record
		setNonZero(t, reflect.ValueOf(&r).Elem().Field(i))
		setNonZero(t, reflect.ValueOf(&all).Elem().Field(i))
		if got := heldRoundTrip(&r); !reflect.DeepEqual(got, r) {
			t.Errorf("%s: held %+v, got back %+v", rt.Field(i).Name, r, got)
		}
	}
	if got := heldRoundTrip(&all); !reflect.DeepEqual(got, all) {
		t.Errorf("every field: held %+v, got back %+v", all, got)
	}
	// The commonest record, a reconcile's failure, is held without its
	// whole apart.
	fail := Record{What: ErrorLine, At: time.Unix(1, 0), Controller: "c", Kind: "K", Namespace: "ns",
		Name: "n", ReconcileID: "id", Error: "boom", Dialect: "d", Message: "Reconciler error", Sampled: true}
	var o ordering
	var h heldRecord
	if o.keep(&h, &fail); h.whole != 0 {
		t.Errorf("a failure's record held whole: %+v", fail)
	}
	// A held record's time is its heldFields' (redateHeldLocked moves it),
	// whole or not.
	later := time.Unix(2, 0)
	for _, r := range []Record{fail, all} {
		o.keep(&h, &r)
		h.f.At = later
		var got Record
		if o.record(&h, &got); !got.At.Equal(later) {
			t.Errorf("time moved to %v, got back %v", later, got.At)
		}
	}
}

// TestHeldFieldsAreRecordsFirst: heldFields are Record's first fields, each
// of the same name and type at the same offset, so that a Record's first
// bytes are a heldFields (keep and record copy them so).
func TestHeldFieldsAreRecordsFirst(t *testing.T) {
	ht, rt := reflect.TypeFor[heldFields](), reflect.TypeFor[Record]()
	for i := range ht.NumField() {
		h, r := ht.Field(i), rt.Field(i)
		if h.Name != r.Name || h.Type != r.Type || h.Offset != r.Offset {
			t.Errorf("heldFields' field %d is %s %s at %d, Record's %s %s at %d", i, h.Name, h.Type, h.Offset, r.Name, r.Type, r.Offset)
		}
	}
	if next := rt.Field(ht.NumField()); next.Offset < ht.Size() {
		t.Errorf("Record's %s at %d, inside heldFields' %d bytes", next.Name, next.Offset, ht.Size())
	}
}

// heldRoundTrip is r held and given back.
func heldRoundTrip(r *Record) Record {
	var o ordering
	var h heldRecord
	o.keep(&h, r)
	got := Record{Error: "left over"} // record overwrites all of it
	o.record(&h, &got)
	return got
}

// setNonZero sets v, a field of Record, to a value that is not its zero.
func setNonZero(t *testing.T, v reflect.Value) {
	t.Helper()
	switch {
	case v.Type() == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Unix(1, 0)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint8:
		v.SetUint(1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
	case reflect.Struct:
		for i := range v.NumField() {
			setNonZero(t, v.Field(i))
		}
	default:
		t.Fatalf("a field of kind %s: setNonZero does not know it", v.Kind())
	}
}
