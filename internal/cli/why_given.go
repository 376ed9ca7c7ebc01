package cli

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// givenFound checks that --controller-pod names an object that exists,
// before anything is answered: otherwise the answer would describe the
// pods ("not instrumented: its log is read") of a workload that is not
// there, and say so only after. Other read errors are left to the answer,
// which says what it could not read.
func givenFound(ctx context.Context, cs cluster.Clientset, g *why.Given) error {
	if g == nil || cs == nil {
		return nil
	}
	t, ns := g.Target, g.Namespace
	var err error
	switch t.Kind {
	case cluster.KindPod:
		_, err = cs.CoreV1().Pods(ns).Get(ctx, t.Name, metav1.GetOptions{})
	case cluster.KindDeployment:
		_, err = cs.AppsV1().Deployments(ns).Get(ctx, t.Name, metav1.GetOptions{})
	case cluster.KindStatefulSet:
		_, err = cs.AppsV1().StatefulSets(ns).Get(ctx, t.Name, metav1.GetOptions{})
	case cluster.KindReplicaSet:
		_, err = cs.AppsV1().ReplicaSets(ns).Get(ctx, t.Name, metav1.GetOptions{})
	}
	if apierrors.IsNotFound(err) {
		return fmt.Errorf("--controller-pod %s: not found in namespace %q (--controller-namespace sets it)", t, ns)
	}
	return nil
}
