package cli

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestGivenFound: a --controller-pod that does not exist is said first, by
// the flag, not after an answer about its pods.
func TestGivenFound(t *testing.T) {
	cs := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "widget-op"}})
	for _, c := range []struct {
		target, ns, wantErr string
	}{
		{"pod/widget-op", "ops", ""},
		{"pod/widget-op", "default", `--controller-pod pod/widget-op: not found in namespace "default" (--controller-namespace sets it)`},
		{"deploy/widget-op", "ops", `--controller-pod deployment/widget-op: not found in namespace "ops" (--controller-namespace sets it)`},
	} {
		tg, err := cluster.ParseTarget(c.target, "")
		if err != nil {
			t.Fatal(err)
		}
		err = givenFound(context.Background(), cs, &why.Given{Target: tg, Namespace: c.ns})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.wantErr {
			t.Errorf("%s in %s: error %q, want %q", c.target, c.ns, got, c.wantErr)
		}
	}
}
