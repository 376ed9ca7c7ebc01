package instrument

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// keyKind picks how an item becomes its string key. The common item types are
// appended into a caller's buffer, so looking up a known key allocates nothing.
type keyKind uint8

const (
	keyFunc keyKind = iota
	keyRequest
	keyNamespacedName
	keyString
	keyStringer
	keySprint
)

// keyer turns a queue item into the key the endpoint shows.
type keyer[T comparable] struct {
	kind keyKind
	fn   func(T) string
}

func newKeyer[T comparable](fn func(T) string) keyer[T] {
	if fn != nil {
		return keyer[T]{kind: keyFunc, fn: fn}
	}
	var zero T
	switch any(zero).(type) {
	case reconcile.Request:
		return keyer[T]{kind: keyRequest}
	case types.NamespacedName:
		return keyer[T]{kind: keyNamespacedName}
	case string:
		return keyer[T]{kind: keyString}
	case fmt.Stringer:
		return keyer[T]{kind: keyStringer}
	}
	return keyer[T]{kind: keySprint}
}

// append appends item's key to dst. Namespaced names read "namespace/name" and
// cluster-scoped ones just "name", as kubectl prints them.
func (k keyer[T]) append(dst []byte, item T) []byte {
	switch k.kind {
	case keyRequest, keyNamespacedName:
		return appendNamespacedName(dst, asNamespacedName(&item))
	case keyString:
		return append(dst, asString(&item)...)
	case keyStringer:
		return append(dst, any(item).(fmt.Stringer).String()...)
	case keySprint:
		return fmt.Append(dst, item)
	}
	return append(dst, k.fn(item)...)
}

// size is the length of item's key, or -1 when only building it tells.
func (k keyer[T]) size(item T) int {
	switch k.kind {
	case keyRequest, keyNamespacedName:
		return namespacedNameSize(asNamespacedName(&item))
	case keyString:
		return len(asString(&item))
	}
	return -1
}

// tail reads item's key in place for the store's shard (see
// store.shardFor): x is what its last 8 bytes read, n its length. ok is
// false for the kinds whose key only building it tells.
func (k keyer[T]) tail(item T) (x uint64, n int, ok bool) {
	switch k.kind {
	case keyRequest, keyNamespacedName:
		x, n = namespacedNameTail(asNamespacedName(&item))
	case keyString:
		x, n = namespacedNameTail(types.NamespacedName{Name: asString(&item)})
	default:
		return 0, 0, false
	}
	return x, n, true
}

// asNamespacedName reads an item of kind keyRequest or keyNamespacedName
// in place: reconcile.Request is a struct of one types.NamespacedName, so
// both have its layout. The store reads an item's key on every record, and
// any(item).(reconcile.Request), in generic code, costs a dictionary
// lookup and a type check each time: a fifth of the time of a record.
func asNamespacedName[T any](item *T) types.NamespacedName {
	return *(*types.NamespacedName)(unsafe.Pointer(item))
}

// reconcile.Request must stay a types.NamespacedName and nothing else for
// asNamespacedName: this fails to compile if its size ever differs.
var _ = [1]struct{}{}[unsafe.Sizeof(reconcile.Request{})-unsafe.Sizeof(types.NamespacedName{})]

// asString reads an item of kind keyString in place, as asNamespacedName.
func asString[T any](item *T) string { return *(*string)(unsafe.Pointer(item)) }

// namespacedNameTail is tail of "namespace/name" (or "name").
func namespacedNameTail(nn types.NamespacedName) (uint64, int) {
	n := namespacedNameSize(nn)
	if len(nn.Name) >= 8 {
		return le64(nn.Name[len(nn.Name)-8:]), n
	}
	// The last 8 bytes straddle the name, the slash and the namespace.
	var b [8]byte
	i := 8 - copy(b[8-len(nn.Name):], nn.Name)
	if nn.Namespace != "" {
		i--
		b[i] = '/'
		take := min(i, len(nn.Namespace))
		copy(b[i-take:i], nn.Namespace[len(nn.Namespace)-take:])
		i -= take
	}
	if n >= 8 {
		return binary.LittleEndian.Uint64(b[:]), n
	}
	var x uint64
	for _, c := range b[i:] {
		x = x<<8 | uint64(c)
	}
	return x, n
}

// le64 is binary.LittleEndian.Uint64 of the 8 bytes of s, without a copy.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func namespacedNameSize(n types.NamespacedName) int {
	if n.Namespace != "" {
		return len(n.Namespace) + 1 + len(n.Name)
	}
	return len(n.Name)
}

func appendNamespacedName(dst []byte, n types.NamespacedName) []byte {
	if n.Namespace != "" {
		dst = append(dst, n.Namespace...)
		dst = append(dst, '/')
	}
	return append(dst, n.Name...)
}
