package why

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// maxPodStates bounds the pods whose state a down controller's answer names.
const maxPodStates = 3

// checkRunning sets c.NotRunning when the controller's pods were found but
// none runs, and clears it otherwise (scaled to zero, crash-looping, not scheduled): that is the
// answer — nothing is reconciling the change — not a failed read of a log.
func (f *Finder) checkRunning(ctx context.Context, c *Controller) {
	if !c.Found() || f.Core == nil {
		return
	}
	// c may be a search remembered from before (Finder.found): what it said
	// then about the pods is read again, not kept once they run.
	c.NotRunning = ""
	t, err := c.target()
	if err != nil {
		return
	}
	var sel, state string
	switch t.Kind {
	case cluster.KindDeployment:
		d, err := f.Core.AppsV1().Deployments(c.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return
		}
		s, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			return
		}
		sel = s.String()
		want := int32(1)
		if d.Spec.Replicas != nil {
			want = *d.Spec.Replicas
		}
		if want == 0 {
			state = "it is scaled to zero (spec.replicas 0)"
		} else {
			state = fmt.Sprintf("%d of %d replicas ready", d.Status.ReadyReplicas, want)
		}
	case cluster.KindPod:
		p, err := f.Core.CoreV1().Pods(c.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return
		}
		if running(*p) {
			return
		}
		c.NotRunning = fmt.Sprintf("%s has no running pods: nothing is reconciling your change (%s)", c.Target, podState(*p))
		return
	case "":
		sel = t.Selector
	default:
		return // a StatefulSet or ReplicaSet: its pods are read as they are
	}
	pods, err := f.Core.CoreV1().Pods(c.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return
	}
	var states []string
	for _, p := range pods.Items {
		if running(p) {
			return
		}
		if len(states) < maxPodStates {
			states = append(states, p.Name+" "+podState(p))
		}
	}
	switch {
	case len(pods.Items) == 0 && state == "":
		state = "no pods"
	case len(pods.Items) == 0:
		state += ", no pods"
	case state == "":
		state = strings.Join(states, "; ")
	default:
		state += "; " + strings.Join(states, "; ")
	}
	c.NotRunning = fmt.Sprintf("%s has no running pods: nothing is reconciling your change (%s)", c.Target, state)
}

func running(p corev1.Pod) bool {
	return p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil
}

// podState is a pod's state in a few words: the waiting reason of its
// containers (CrashLoopBackOff, ImagePullBackOff), or why it is not
// scheduled, or that it runs and is not ready, or its phase.
func podState(p corev1.Pod) string {
	for _, cs := range append(p.Status.InitContainerStatuses, p.Status.ContainerStatuses...) {
		if w := cs.State.Waiting; w != nil && w.Reason != "" {
			s := fmt.Sprintf("container %s %s", cs.Name, w.Reason)
			if w.Message != "" {
				s += ": " + oneLine(w.Message)
			}
			return s
		}
		if t := cs.State.Terminated; t != nil && t.ExitCode != 0 {
			return fmt.Sprintf("container %s exited %d (%s)", cs.Name, t.ExitCode, t.Reason)
		}
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return fmt.Sprintf("not scheduled (%s): %s", c.Reason, oneLine(c.Message))
		}
	}
	if p.DeletionTimestamp != nil {
		return "terminating"
	}
	if p.Status.Phase == "" {
		return "Pending"
	}
	if p.Status.Phase == corev1.PodRunning {
		// Started and not ready: a readiness probe that does not pass, the
		// usual reason a rollout makes no progress.
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionFalse {
				return "Running, not ready" + reasonWords(c.Reason, c.Message)
			}
		}
	}
	return string(p.Status.Phase)
}

// reasonWords is " (REASON: MESSAGE)", or as much of it as is set.
func reasonWords(reason, message string) string {
	switch {
	case reason != "" && message != "":
		return fmt.Sprintf(" (%s: %s)", reason, oneLine(message))
	case reason != "" || message != "":
		return " (" + oneLine(reason+message) + ")"
	}
	return ""
}
