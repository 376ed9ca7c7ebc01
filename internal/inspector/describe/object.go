package describe

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// maxEvents bounds the events shown for an object.
const maxEvents = 10

// ObjectReader reads the object behind a key: from the API server through
// Dynamic and Mapper, or, where there is none, through Fetch.
type ObjectReader struct {
	Dynamic dynamic.Interface
	Core    cluster.Clientset
	Mapper  meta.RESTMapper
	// Fetch, when set, reads the object instead of Dynamic and Mapper: an
	// in-process store's (the demo's, which runs with no API server). It
	// returns a NotFound error of the API's kind for an object not there.
	Fetch func(ctx context.Context, gvk api.GroupVersionKind, namespace, name string) (*unstructured.Unstructured, error)
	// Now is the clock the events' ages count from; time.Now when nil.
	Now func() time.Time
}

// Read fetches the object of kind gvk named by key ("namespace/name" or "name").
func (r *ObjectReader) Read(ctx context.Context, gvk api.GroupVersionKind, key string) (*objstatus.Object, error) {
	ns, name, _ := strings.Cut(key, "/")
	if name == "" {
		ns, name = "", ns
	}
	if r.Fetch != nil {
		u, err := r.Fetch(ctx, gvk, ns, name)
		if err != nil {
			return nil, fmt.Errorf("get %s %s: %w", strings.ToLower(gvk.Kind), key, err)
		}
		st := statusOf(u)
		st.Kind = gvk.Kind
		return st, nil
	}
	gk := schema.GroupKind{Group: gvk.Group, Kind: gvk.Kind}
	m, err := r.Mapper.RESTMapping(gk, gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("kind %s: %w", gk, err)
	}
	var res dynamic.ResourceInterface = r.Dynamic.Resource(m.Resource)
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		res = r.Dynamic.Resource(m.Resource).Namespace(ns)
	}
	u, err := res.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("get %s %s: %w", strings.ToLower(gvk.Kind), key, err)
	}
	st := statusOf(u)
	st.Kind = gvk.Kind
	if r.Core != nil {
		st.Events, err = r.events(ctx, u)
		if err != nil {
			return st, fmt.Errorf("events of %s %s: %w", strings.ToLower(gvk.Kind), key, err)
		}
		// Failure events that keep recurring say what kstatus does not
		// read, by the rule why applies to the same object.
		now := time.Now
		if r.Now != nil {
			now = r.Now
		}
		st.Verdict.JudgeObjectEvents(u, st.Events, now())
	}
	return st, nil
}

// statusOf reads the generic status fields of any object; its generation,
// observedGeneration and conditions are the verdict's (objstatus.Judge).
func statusOf(u *unstructured.Unstructured) *objstatus.Object {
	st := &objstatus.Object{Namespace: u.GetNamespace(), Name: u.GetName(), Finalizers: u.GetFinalizers()}
	st.Verdict, st.SpecChange = objstatus.Judge(u), objstatus.OwnershipOf(u.GetManagedFields()).SpecChange
	if dt := u.GetDeletionTimestamp(); dt != nil {
		t := dt.Time
		st.DeletionTimestamp = &t
	}
	return st
}

func (r *ObjectReader) events(ctx context.Context, u *unstructured.Unstructured) ([]objstatus.Event, error) {
	sel := fields.Set{"involvedObject.name": u.GetName(), "involvedObject.uid": string(u.GetUID())}
	list, err := r.Core.CoreV1().Events(u.GetNamespace()).List(ctx, metav1.ListOptions{FieldSelector: sel.AsSelector().String()})
	if err != nil {
		return nil, err
	}
	out := make([]objstatus.Event, 0, len(list.Items))
	for _, e := range list.Items {
		count, first := e.Count, e.FirstTimestamp.Time
		if e.Series != nil && e.Series.Count > count { // events.k8s.io/v1 series
			count = e.Series.Count
		}
		if first.IsZero() {
			first = e.EventTime.Time
		}
		out = append(out, objstatus.Event{Type: e.Type, Reason: e.Reason, Message: e.Message, Count: count, LastSeen: eventTime(e), FirstSeen: first})
	}
	// Folded before the cut: ten FailedCreate rows that differ in a
	// generated pod name are one series, and must not hide the rest.
	out = objstatus.FoldEvents(out)
	return out[:min(len(out), maxEvents)], nil
}

func eventTime(e corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}
