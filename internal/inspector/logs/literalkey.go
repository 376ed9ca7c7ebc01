package logs

import (
	"regexp"
	"strings"
)

// A key may be printed as the record its type's toString or String writes,
// braces around a name and a namespace field: Java's
// "ResourceID{name='x', namespace='ns'}" (batch18/1800), Go's %+v of a
// NamespacedName "{Namespace:ns Name:x}", Python's "{'name': 'x',
// 'namespace': 'ns'}". The generic reader takes it as the line's key when
// the message names none otherwise: one such literal (or the same key in
// several), its namespace field present (empty for a cluster-scoped
// object).

// literalField is a name or namespace field of a literal and its value:
// quoted (any run of non-space), or bare (a DNS name).
var literalField = regexp.MustCompile(`(?i)\b(namespace|name)['"]?\s*[=:]\s*(?:'([^'\s]*)'|"([^"\s]*)"|([a-z0-9][-a-z0-9.]*))`)

// literalKey is the key of the one brace literal of s naming a name and a
// namespace, where it opens and where it closes.
func literalKey(s string) (key string, at, end int, ok bool) {
	for i := 0; i < len(s); {
		o := strings.IndexByte(s[i:], '{')
		if o < 0 {
			break
		}
		o += i
		c := strings.IndexAny(s[o+1:], "{}")
		if c < 0 {
			break
		}
		c += o + 1
		i = c
		if s[c] == '{' {
			continue // a literal inside: read it, not this one
		}
		i = c + 1
		k, found := literalFields(s[o+1 : c])
		if !found {
			continue
		}
		if key != "" && k != key {
			return "", 0, 0, false
		}
		if key == "" {
			at, end = o, c+1
		}
		key = k
	}
	return key, at, end, key != ""
}

// literalFields is the key of one literal's fields: "ns/name", "/name"
// for an empty namespace; found only when both fields are there, once.
func literalFields(inner string) (key string, found bool) {
	var name, ns string
	names, namespaces := 0, 0
	for _, m := range literalField.FindAllStringSubmatchIndex(inner, -1) {
		v := ""
		for g := 2; g <= 4; g++ {
			if m[2*g] >= 0 {
				v = inner[m[2*g]:m[2*g+1]]
			}
		}
		if m[1] < len(inner) && (inner[m[1]] == ':' || inner[m[1]] == '=') {
			continue // "Namespace: Name:x": the next field's name, not a value
		}
		if strings.EqualFold(inner[m[2]:m[3]], "name") {
			name, names = v, names+1
		} else {
			ns, namespaces = v, namespaces+1
		}
	}
	if names != 1 || namespaces > 1 || name == "" {
		return "", false
	}
	if namespaces == 0 {
		return "", false
	}
	return ns + "/" + name, true
}

// literalError is the error of a line whose key is a literal ending at
// from: what follows it, or the retry or drop words after it.
func literalError(msg string, from int, drop, retry []int) string {
	for _, at := range [][]int{drop, retry} {
		if at != nil && at[1] > from {
			from = at[1]
		}
	}
	return errorAfter(msg, from)
}
