package why

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// RuleLogKind: of several candidates (kubebuilder scaffolds every operator
// as a Deployment with a container "manager" writing as field manager
// "manager"), the one whose log names the object's kind.
const RuleLogKind = "log-kind"

// Bounds of the logs read to tell candidates apart.
const (
	maxLogCandidates = 5
	logHeadBytes     = 256 << 10 // the start: controller-runtime's "Starting Controller" lines
	logTailLines     = 500       // the end: reconcile lines name the kind too
)

// LogReader reads a part of the log of a container of a workload's first
// running pod: its first headBytes, or its last tailLines.
type LogReader func(ctx context.Context, namespace, target, container string, headBytes, tailLines int64) (string, error)

// kindIn reports whether a controller-runtime log names kind gk: its
// controllers are logged with controllerKind/controllerGroup (v0.11 on:
// "Starting Controller", "Starting workers", every reconcile line), before
// that "reconciler kind"/"reconciler group" — as JSON, console or klog
// key=value.
func kindIn(log string, gk schema.GroupKind) bool {
	kind := regexp.MustCompile(`(?:controllerKind|reconciler kind)"?\s*[:=]\s*"` + regexp.QuoteMeta(gk.Kind) + `"`)
	group := regexp.MustCompile(`(?:controllerGroup|reconciler group)"?\s*[:=]\s*"([^"]*)"`)
	for _, line := range strings.Split(log, "\n") {
		if !kind.MatchString(line) {
			continue
		}
		if m := group.FindStringSubmatch(line); m != nil && m[1] != gk.Group {
			continue
		}
		return true
	}
	return false
}

// byLog keeps, of an ambiguous search's candidates ("NS/deploy/NAME"), the
// one whose log names the object's kind; nil when none or several do.
func (f *Finder) byLog(ctx context.Context, gk schema.GroupKind, amb *Controller) *Controller {
	if f.Logs == nil || len(amb.Candidates) > maxLogCandidates {
		return nil
	}
	var matched []*Controller
	for _, cand := range amb.Candidates {
		ns, target, ok := strings.Cut(cand, "/")
		if !ok {
			continue
		}
		head, err := f.Logs(ctx, ns, target, amb.Manager, logHeadBytes, 0)
		if err != nil {
			continue
		}
		tail, _ := f.Logs(ctx, ns, target, amb.Manager, 0, logTailLines)
		if kindIn(head, gk) || kindIn(tail, gk) {
			matched = append(matched, &Controller{Manager: amb.Manager, Rule: RuleLogKind, Namespace: ns, Target: target})
		}
	}
	if len(matched) != 1 {
		return nil
	}
	c := matched[0]
	c.How = fmt.Sprintf("%d workloads match the status manager %q (%s); only the log of %s in %s names kind %s (controllerKind): that rule decided",
		len(amb.Candidates), amb.Manager, strings.Join(amb.Candidates, ", "), c.Target, c.Namespace, gk)
	return c
}

// ReadLog implements LogReader over pods/log.
func (c *Cluster) ReadLog(ctx context.Context, namespace, target, container string, headBytes, tailLines int64) (string, error) {
	t, err := cluster.ParseTarget(target, "")
	if err != nil {
		return "", err
	}
	pods, err := cluster.Resolve(ctx, c.Core, t, namespace, false, "")
	if err != nil || len(pods) == 0 {
		return "", fmt.Errorf("%s in %s: no running pod (%v)", target, namespace, err)
	}
	opts := &corev1.PodLogOptions{Container: container}
	if headBytes > 0 {
		opts.LimitBytes = &headBytes
	}
	if tailLines > 0 {
		opts.TailLines = &tailLines
	}
	rc, err := c.Core.CoreV1().Pods(namespace).GetLogs(pods[0].Name, opts).Stream(ctx)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, logHeadBytes*2))
	return string(b), err
}
