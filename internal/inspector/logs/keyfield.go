package logs

import "bytes"

// noteKeyField keeps a field this package has no name for when its value
// is an object's key (namespace/name): many controllers put the key they
// failed on only in a field named after its kind (job="team/migrate",
// PVC="ns/x", logrus' cluster-name=ns/x), and the generic reader reads it
// there when the message names none. Two fields of different keys are no
// key (keyFields says how many). The bytes are checked before they are
// copied: most fields are not keys.
func (f *fields) noteKeyField(key, val []byte) {
	f.noteKindField(key, val)
	f.noteSubjectField(key, val)
	f.noteClusterField(key, val)
	f.noteCallerField(key, val)
	if len(val) < 3 || len(val) > 317 || bytes.Count(val, []byte("/")) != 1 || val[0] == '/' {
		return
	}
	switch string(key) {
	case "caller", "source", "file", "pos", "func", "url", "path", "uri", "image", "apiVersion", "version", "gvk", "resource":
		return
	}
	if !nsName.Match(val) {
		return
	}
	if _, name, _ := bytes.Cut(val, []byte("/")); apiVersion.Match(name) {
		return
	}
	if f.keyFields > 0 && string(val) == f.keyField {
		return
	}
	f.keyFields++
	f.keyField, f.keyFieldName = string(val), string(key)
}

// fieldKey is the key the line's own key fields name, the first of: the
// key in a field of its own (alt), controller-runtime's object reference
// (ref), the name and namespace fields. ok is false when none does; the
// readers then look in the message, or at a field they know less well.
func (f *fields) fieldKey() (namespace, name string, ok bool) {
	switch {
	case f.alt != "":
		namespace, name = splitKey(f.alt)
	case f.ref() != "":
		namespace, name = splitRef(f.ref())
	case f.name != "":
		namespace, name = f.namespace, f.name
	default:
		return "", "", false
	}
	return namespace, name, true
}
