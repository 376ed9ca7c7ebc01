package logs

import (
	"strings"
	"testing"
)

// TestSubjectField: argo-rollouts' `rollout syncHandler error: ERR` with
// `namespace=myns rollout=test-rollout` (batch6/100, pasted in an issue)
// is the rollout's failed attempt, twice; not when the field is not the one
// the message opens with, when no namespace is named, or when more than
// the kind's word stands before the phrase. jaeger-operator's `failed to
// apply the changes` with instance= (batch6/117), whose message opens
// with no kind, stays unread.
func TestSubjectField(t *testing.T) {
	argo := readTestdata(t, "testdata/batch6/100-argo-rollouts-logrus-synchandler-error-2x.log")
	for _, tt := range []struct {
		name, log, key string
		failures       int
	}{
		{"the kind's word, then the phrase", argo, "myns/test-rollout", 2},
		{"another field", strings.ReplaceAll(argo, " rollout=", " owner="), "", 0},
		{"no namespace", strings.ReplaceAll(argo, " namespace=myns", ""), "", 0},
		{"more words before the phrase", strings.ReplaceAll(argo, `msg="rollout syncHandler`, `msg="the rollout syncHandler`), "", 0},
		{"no kind's word", readTestdata(t, "testdata/batch6/117-jaeger-operator-logrus-tty-failed-to-apply-3x.log"), "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: "rollout", key: tt.key, errPrefix: "found '<', expected", failures: tt.failures})
		})
	}
}

// TestFoldEqual: ASCII letters match whatever their case, nothing else.
func TestFoldEqual(t *testing.T) {
	for _, tt := range []struct {
		s, b string
		want bool
	}{
		{"rollout", "Rollout", true}, {"KubeadmControlPlane", "kubeadmControlPlane", true},
		{"rollout", "rollouts", false}, {"a-b", "a-b", true}, {"a-b", "a\rb", false}, {"@", "`", false},
	} {
		if got := foldEqual(tt.s, []byte(tt.b)); got != tt.want {
			t.Errorf("foldEqual(%q, %q) = %v, want %v", tt.s, tt.b, got, tt.want)
		}
	}
}

// TestWordAt: a field's name stands in the message as a word of its own.
func TestWordAt(t *testing.T) {
	for _, tt := range []struct {
		msg, key string
		want     int
	}{
		{"Failed to update KubeadmControlPlane Status", "kubeadmControlPlane", 17},
		{"rollout syncHandler error: x", "rollout", 0},
		{"rollouts syncHandler error", "rollout", -1},
		{"the subrollout failed", "rollout", -1},
		{"failed for rollout", "rollout", 11},
	} {
		if got := wordAt(tt.msg, []byte(tt.key)); got != tt.want {
			t.Errorf("wordAt(%q, %q) = %d, want %d", tt.msg, tt.key, got, tt.want)
		}
	}
}
