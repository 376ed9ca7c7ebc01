package cli

import (
	"context"
	"fmt"
	"io"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// maxWatched bounds the objects of a chain `why -w` watches (a watch each).
const maxWatched = 20

// runWatch is `why -w TYPE/NAME`: the first answer whole, then each new
// answer appended (as kubectl -w appends rows, never a redraw) until the
// object is Current, or Ctrl-C.
func (o *WhyOptions) runWatch(ctx context.Context, obj object, newAsker func() (*why.Asker, func(), error)) error {
	cfg, err := o.configFlags.ToRESTConfig()
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	gvr := schema.FromAPIVersionAndKind(obj.u.GetAPIVersion(), obj.u.GetKind()).GroupVersion().WithResource(obj.resource)
	w := &why.Watch{
		Ask: func(ctx context.Context) (*why.Answer, error) {
			u, err := resourceOf(dyn, gvr, obj.u.GetNamespace()).Get(ctx, obj.u.GetName(), metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return nil, fmt.Errorf("%s was deleted", objectRef(obj))
			}
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", objectRef(obj), err)
			}
			// A fresh asker each time: no Events, lists or log kept from
			// the answer before.
			asker, done, err := newAsker()
			if err != nil {
				return nil, err
			}
			defer done()
			if err := o.addSources(ctx, asker); err != nil {
				return nil, err
			}
			return asker.Ask(ctx, u, obj.resource), nil
		},
		Changes: func(ctx context.Context, a *why.Answer) (<-chan struct{}, func(), error) {
			return chainChanges(ctx, dyn, a)
		},
		Emit: func(u why.Update) {
			if !o.output.text() {
				_ = o.output.print(o.Out, u.Answer, "")
				return
			}
			printWatchUpdate(o.Out, u)
		},
	}
	return w.Run(ctx)
}

// printWatchUpdate prints the first answer whole, each later one as a
// stamped line and its steps, the wait for a retry said.
func printWatchUpdate(w io.Writer, u why.Update) {
	a := u.Answer
	if u.Cause == "first" {
		printAnswer(w, a)
		fmt.Fprintln(w)
	} else {
		pw := text.PrintableWriter(w) // text from the cluster: see text.Printable
		fmt.Fprintf(pw, "%s  %s  %s\n", text.TimeOfDay(a.Now), u.Cause, a.Verdict.Status)
		width := screenWidth(pw)
		writeProse(pw, "  ", text.Printable(a.Summary), width)
		for _, n := range a.Next {
			writeProse(pw, "  ", "> "+text.Printable(n), width)
		}
	}
	switch {
	case u.Done:
		fmt.Fprintf(w, "%s  Current: done watching\n", text.TimeOfDay(a.Now))
	case u.RetryWait != "":
		writeProse(w, "", fmt.Sprintf("Watching: it %s; judged again then, or on a change.", text.Printable(u.RetryWait)), screenWidth(w))
	case u.Cause == "first":
		fmt.Fprintln(w, "Watching: judged again on every change of it or of its chain, until it is Current (Ctrl-C stops).")
	}
}

// chainChanges watches a's object and the objects of its chain (at most
// maxWatched), each from the resourceVersion of a list of it by name: the
// channel receives a value on any change after that, and at once when the
// list finds an object other than the answer read it (changed, created or
// deleted while the answer was computed: a watch from the list alone
// would never see that change).
func chainChanges(ctx context.Context, dyn dynamic.Interface, a *why.Answer) (<-chan struct{}, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	changed := make(chan struct{}, 1)
	signal := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	var wg sync.WaitGroup
	seen := map[string]bool{}
	for _, read := range a.Reads() {
		x := read.Object
		id := x.APIVersion + "/" + x.Resource + "/" + x.Namespace + "/" + x.Name
		if x.Resource == "" || seen[id] || len(seen) == maxWatched {
			continue
		}
		seen[id] = true
		gvr := schema.FromAPIVersionAndKind(x.APIVersion, x.Kind).GroupVersion().WithResource(x.Resource)
		r := resourceOf(dyn, gvr, x.Namespace)
		sel := fields.OneTermEqualSelector("metadata.name", x.Name).String()
		l, err := r.List(ctx, metav1.ListOptions{FieldSelector: sel})
		if err != nil {
			continue // not watchable by this user: the others still are
		}
		if rv := listedVersion(l, x.Name); rv != read.ResourceVersion {
			signal()
		}
		wi, err := r.Watch(ctx, metav1.ListOptions{FieldSelector: sel, ResourceVersion: l.GetResourceVersion()})
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer wi.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case _, ok := <-wi.ResultChan():
					if !ok && ctx.Err() != nil {
						return
					}
					// A change, or the server ended the watch (its
					// timeout): judged again, and watched anew.
					signal()
					if !ok {
						return
					}
				}
			}
		}()
	}
	return changed, func() { cancel(); wg.Wait() }, nil
}

// listedVersion is the resourceVersion of the object named name in l, ""
// when l does not hold it.
func listedVersion(l *unstructured.UnstructuredList, name string) string {
	for i := range l.Items {
		if l.Items[i].GetName() == name {
			return l.Items[i].GetResourceVersion()
		}
	}
	return ""
}

// resourceOf is the dynamic client of gvr, in namespace ns when it is one.
func resourceOf(dyn dynamic.Interface, gvr schema.GroupVersionResource, ns string) dynamic.ResourceInterface {
	if ns == "" {
		return dyn.Resource(gvr)
	}
	return dyn.Resource(gvr).Namespace(ns)
}

// objectRef names obj as kubectl does.
func objectRef(obj object) string {
	ref := obj.resource + "/" + obj.u.GetName()
	if ns := obj.u.GetNamespace(); ns != "" {
		ref += " -n " + ns
	}
	return ref
}
