package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestTopForNotReconciled: `top --for widgets` lists a Widget no controller
// has written a status for (the kind has a status subresource), as
// `why widgets` does, and its answer says it is not reconciled yet.
func TestTopForNotReconciled(t *testing.T) {
	cl := newForCluster()
	u := widgetObject("w-never", 1, 0, "helm", 2*time.Minute)
	delete(u.Object, "status")
	cl.items = append(cl.items, objwhy.Item{Object: u, Resource: "widgets"})
	disc := fake.NewClientset()
	disc.Resources = []*metav1.APIResourceList{{GroupVersion: "example.com/v1", APIResources: []metav1.APIResource{
		{Name: "widgets", Kind: "Widget", Namespaced: true}, {Name: "widgets/status", Kind: "Widget", Namespaced: true}}}}
	cl.asker.Kinds = &objwhy.DiscoveryKinds{Discovery: disc.Discovery()}

	m := newModel(context.Background(), view.Options{Clock: func() time.Time { return t0 }, For: &view.ForOptions{Type: "widgets", List: cl.list}})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 24})
	m = runFor(t, m, m.refreshFor())
	s := screen(m)
	if !strings.Contains(s, "3 of 4 not Current") || lineWith(s, "w-never ") == "" {
		t.Fatalf("want w-never listed among 3 of 4 not Current:\n%s", s)
	}
	if row := lineWith(s, "w-never "); !strings.Contains(row, "InProgress") {
		t.Errorf("w-never's row %q; want InProgress", row)
	}
	// The rows are longest-waiting first: w-old, w-new, then w-never.
	m = send(t, m, press("down"))
	m = send(t, m, press("down"))
	m = send(t, m, press("enter"))
	if s := screen(m); !strings.Contains(s, "why widgets › w-never") || !strings.Contains(s, "no controller has written its status yet") {
		t.Errorf("w-never's answer should say it is not reconciled yet:\n%s", s)
	}
}
