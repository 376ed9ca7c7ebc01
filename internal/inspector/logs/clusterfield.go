package logs

import "bytes"

// A cluster-scoped object's key is its bare name, which noteKeyField does
// not keep (a value without a "/" is most fields' value). kwok's node
// lease controller and node stage worker put the node they failed on only
// in a field named after its kind, in lower case, as slog's and
// logr's callers write it ({"msg":"Failed to sync lease","err":…,
// "node":"sim-rack2-n1"}, batch21). A field so named whose value is a DNS
// name is the line's key when no field names a namespace/name: a line
// that names a pod and its node is the pod's.

// clusterKindFields are field names that are a cluster-scoped kind in
// lower case.
var clusterKindFields = map[string]bool{"node": true, "persistentvolume": true, "storageclass": true, "csinode": true}

// noteClusterField keeps a cluster-scoped kind's field whose value is a
// name; two of different values are no key (clusterFields counts them).
func (f *fields) noteClusterField(key, val []byte) {
	if !clusterKindFields[string(key)] || bytes.IndexByte(val, '/') >= 0 || !clusterName.Match(val) {
		return
	}
	if f.clusterFields > 0 && string(val) == f.clusterField {
		return
	}
	f.clusterFields++
	f.clusterField = string(val)
}

// soleKeyField is the line's one key field: its namespace/name field, else
// its one cluster-scoped kind's field as "/NAME"; "" when it has none or
// two.
func (f *fields) soleKeyField() string {
	switch {
	case f.keyFields == 1:
		return f.keyField
	case f.keyFields == 0 && f.clusterFields == 1:
		return "/" + f.clusterField
	}
	return ""
}
