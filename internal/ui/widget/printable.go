package widget

import (
	"encoding/json"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"reflect"
)

// A view draws text from the cluster (names, errors, reasons, events) with
// styles of its own, so its output cannot be escaped whole: the text is
// escaped where it is drawn (a table cell, a title, the status line), or,
// for a view drawn from one fetched value, in that value when it arrives.

// PrintableFields escapes, with text.Printable, every string reachable
// from v (a pointer) through structs, pointers, slices and arrays: the one
// place a fetched description becomes text for the terminal, whatever
// field a later version adds. Maps and unexported fields are left as they
// are (none holds the cluster's text).
func PrintableFields(v any) {
	walkStrings(reflect.ValueOf(v), 0)
}

// DeepCopy is v copied through JSON, the wire form of what a view is sent,
// so that escaping the copy (printableFields) leaves v as read. ok is
// false when v does not round-trip: the copy is then v itself.
func DeepCopy[T any](v T) (_ T, ok bool) {
	var out T
	b, err := json.Marshal(v)
	if err != nil || json.Unmarshal(b, &out) != nil {
		return v, false
	}
	return out, true
}

// maxWalkDepth bounds the walk: the values are trees a few levels deep,
// and a cycle a later type brings must not hang the UI.
const maxWalkDepth = 32

func walkStrings(v reflect.Value, depth int) {
	if depth > maxWalkDepth {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() || f.Kind() == reflect.Pointer {
				walkStrings(f, depth+1)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkStrings(v.Index(i), depth+1)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(text.Printable(v.String()))
		}
	}
}
