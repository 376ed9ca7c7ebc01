package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestPrintWatchUpdate: `why -w` prints the first answer whole and the
// retry it waits for, then each later answer appended as a stamped line
// with its steps (as kubectl -w appends rows: no redraw, no escape
// sequence), and the end on Current.
func TestPrintWatchUpdate(t *testing.T) {
	at := time.Date(2026, 12, 6, 9, 0, 5, 0, time.UTC)
	a := &why.Answer{Object: why.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "q", Name: "web", Key: "q/web"},
		Verdict: why.Verdict{Status: why.InProgress}, Summary: "InProgress: it waits for replicaset.apps/web-1", Next: []string{"Retry now: kubectl backoff kick --kind ReplicaSet.apps q/web-1"}, Now: at}
	var b bytes.Buffer
	printWatchUpdate(&b, why.Update{Answer: a, Cause: "first", RetryWait: "waits only for a retry: …"})
	first := b.String()
	if !strings.HasPrefix(first, "Object:      deployment.apps/web -n q\n") || !strings.HasSuffix(first, "\nWatching: it waits only for a retry: …; judged again then, or on a change.\n") {
		t.Errorf("first update:\n%s\nwant the whole answer, then what it waits for", first)
	}
	b.Reset()
	a.Summary = "InProgress: it waits for pod/web-1-x, which is InProgress: Pending"
	a.Next = nil
	printWatchUpdate(&b, why.Update{Answer: a, Cause: "changed"})
	if want := "09:00:05  changed  InProgress\n  InProgress: it waits for pod/web-1-x, which is InProgress: Pending\n"; b.String() != want {
		t.Errorf("later update:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	a.Verdict.Status, a.Summary = why.Current, "Current: the latest change is reconciled, nothing to wait for."
	printWatchUpdate(&b, why.Update{Answer: a, Cause: "changed", Done: true})
	if !strings.HasSuffix(b.String(), "09:00:05  Current: done watching\n") || strings.Contains(b.String(), "\x1b") {
		t.Errorf("last update:\n%q\nwant the end said, no escape sequence", b.String())
	}
}

// TestChainChangesSinceTheAnswer: `why -w` watches from a list made after
// the answer was computed; a change in between (the Deployment's
// ReplicaFailure cleared while the answer was read: a real
// kube-controller-manager did it, and the watch never printed again) is a
// change at once. The object as the answer read it is none; a change after
// the list is one.
func TestChainChangesSinceTheAnswer(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	deployment := func(rv string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("apps/v1")
		u.SetKind("Deployment")
		u.SetNamespace("q")
		u.SetName("web")
		u.SetResourceVersion(rv)
		return u
	}
	answer := (&why.Asker{}).Ask(context.Background(), deployment("5"), "deployments")
	for _, tt := range []struct {
		name, now string
		changed   bool
	}{{"changed while the answer was read", "6", true}, {"as read", "5", false}} {
		t.Run(tt.name, func(t *testing.T) {
			dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
				map[schema.GroupVersionResource]string{gvr: "DeploymentList"}, deployment(tt.now))
			ch, stop, err := chainChanges(context.Background(), dyn, answer)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			select {
			case <-ch:
				if !tt.changed {
					t.Fatal("a change signalled for the object as the answer read it")
				}
				return
			default:
				if tt.changed {
					t.Fatal("resourceVersion 6 listed, 5 read: no change signalled; the change made while the answer was computed is lost")
				}
			}
			// A change after the list: the watch's.
			if _, err := dyn.Resource(gvr).Namespace("q").Update(context.Background(), deployment("7"), metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ch:
			case <-time.After(30 * time.Second): // a deadline, not a wait: the update is already made
				t.Fatal("an update after the list was not signalled")
			}
		})
	}
}
