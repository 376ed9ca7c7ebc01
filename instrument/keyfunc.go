package instrument

import (
	"fmt"

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
	case keyRequest:
		return appendNamespacedName(dst, any(item).(reconcile.Request).NamespacedName)
	case keyNamespacedName:
		return appendNamespacedName(dst, any(item).(types.NamespacedName))
	case keyString:
		return append(dst, any(item).(string)...)
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
	case keyRequest:
		return namespacedNameSize(any(item).(reconcile.Request).NamespacedName)
	case keyNamespacedName:
		return namespacedNameSize(any(item).(types.NamespacedName))
	case keyString:
		return len(any(item).(string))
	}
	return -1
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
