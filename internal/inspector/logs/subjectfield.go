package logs

import "strings"

// A handler may open its failure line with the kind of the object it
// failed on, in lower case, and put the object only in a field of that
// kind's name beside its namespace: argo-rollouts' processNextWorkItem
// logs `logCtx.Errorf("%s syncHandler error: %v", objType, err)` then
// AddRateLimited's the key, its logger carrying the object as
// `namespace=myns rollout=test-rollout` (batch6/100: msg="rollout
// syncHandler error: ERR"). The message names the field, the field names
// the object: the key is that namespace and name. A field named by another
// word of the message ("Failed to update KubeadmControlPlane Status"
// "kubeadmControlPlane"="x" "namespace"="ns", batch7/745) names the key of
// a candidate, which the log's structure decides (evidence.go,
// sameerror.go): the words do not say the attempt failed.

// noteSubjectField keeps a field named by a word of the message, letter
// case aside, whose value is an object's name (a DNS name), on a line at
// error or warning level (the generic reader reads no failure on another
// without an error field). The message and the level are read before the
// fields in every format that calls this (logrus, klog, JSON): a field
// before them is not looked at.
func (f *fields) noteSubjectField(key, val []byte) {
	if !f.severe || len(key) < 3 || len(f.msg) < len(key) {
		return
	}
	at := wordAt(f.msg, key)
	if at < 0 {
		return
	}
	if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
		val = val[1 : len(val)-1]
	}
	if !clusterName.Match(val) {
		return
	}
	f.subjectName, f.subjectField = f.msg[at:at+len(key)], string(val)
}

// wordAt is where key stands in msg as a word of its own, letter case
// aside ("KubeadmControlPlane" in "Failed to update KubeadmControlPlane
// Status" for the field kubeadmControlPlane); -1 when nowhere.
func wordAt(msg string, key []byte) int {
	for i := 0; i+len(key) <= len(msg); i++ {
		if i > 0 && wordByte(msg[i-1]) {
			continue
		}
		if e := i + len(key); (e == len(msg) || !wordByte(msg[e])) && foldEqual(msg[i:e], key) {
			return i
		}
	}
	return -1
}

// wordByte says b is part of a word: a letter, a digit or '_'.
func wordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b|0x20 && b|0x20 <= 'z'
}

// foldEqual is strings.EqualFold of s and b, ASCII only, without copying
// b: the scan calls it on fields of most lines.
func foldEqual(s string, b []byte) bool {
	if len(s) != len(b) {
		return false
	}
	for i := range len(s) {
		x, y := s[i], b[i]
		if x == y {
			continue
		}
		if l := x | 0x20; l != y|0x20 || l < 'a' || l > 'z' {
			return false
		}
	}
	return true
}

// subjectLead says the message opens (at opens) with the subject field's
// name alone before its failure phrase at fail ("rollout syncHandler
// error: ERR"), and the line names the namespace: the failure is that
// object's.
func (f *fields) subjectLead(msg string, opens int, fail []int) bool {
	if f.subjectField == "" || f.namespace == "" || fail == nil || fail[0] <= opens {
		return false
	}
	words := strings.Fields(msg[opens:fail[0]])
	return len(words) == 1 && strings.EqualFold(words[0], f.subjectName)
}
