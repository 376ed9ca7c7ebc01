package cli

import (
	"cmp"
	"context"
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// why TYPE: every object of a kind, judged in one list.

// listKind reads the objects of the kind and answers for those not
// Current, the longest-waiting change first: the one code path of
// `why TYPE` and `top --for TYPE`.
func (o *WhyOptions) listKind(ctx context.Context, asker *why.Asker) (*why.List, error) {
	objects, err := o.objects()
	if err != nil {
		return nil, err
	}
	items := make([]why.Item, len(objects))
	for i, obj := range objects {
		items[i] = why.Item{Object: obj.u, Resource: obj.resource}
	}
	return asker.List(ctx, items), nil
}

// runList prints the objects that are not Current, longest-waiting first.
func (o *WhyOptions) runList(ctx context.Context, asker *why.Asker) error {
	l, err := o.listKind(ctx, asker)
	if err != nil {
		return err
	}
	if !o.output.text() {
		doc := map[string]any{"items": l.Answers}
		if l.EventsSkipped != "" {
			doc["eventsSkipped"] = l.EventsSkipped
		}
		return o.output.print(o.Out, doc, "")
	}
	defer func() {
		if l.EventsSkipped != "" {
			fmt.Fprintf(o.ErrOut, "note: %s\n", l.EventsSkipped)
		}
	}()
	switch {
	case l.Total == 0:
		// As kubectl get says it, and exits 0: an empty list is an answer.
		fmt.Fprintln(o.ErrOut, o.noneFound())
		return nil
	case len(l.Answers) == 0:
		fmt.Fprintln(o.ErrOut, allCurrent(l.Total, o.args[0], l.Kind, l.Resource, l.EventsSkipped != ""))
		return nil
	}
	printAnswerList(o.Out, l.Answers, o.AllNamespaces)
	return nil
}

// noneFound says that `why TYPE` found no object, and where it looked:
// the namespace, or every one with -A (kubectl get's "No resources found
// in default namespace.").
func (o *WhyOptions) noneFound() string {
	what := "No " + o.args[0] + " found"
	if o.Selector != "" {
		what += " matching -l " + o.Selector
	}
	if o.AllNamespaces {
		return what + " in any namespace."
	}
	ns, _, err := o.configFlags.ToRawKubeConfigLoader().Namespace()
	if err != nil || ns == "" {
		return what + "."
	}
	return fmt.Sprintf("%s in namespace %q (-n NAMESPACE for another, -A for all).", what, ns)
}

// allCurrent says that every object the list read is Current, in words
// that agree with the count ("the one Deployment found is", "all 3
// deployments are"), the kind and resource as the API names them, else as
// the user typed it. When the list skipped reading some objects' Events
// or keys (skipped: over its cap, its note says which), Current is only
// what their status says, and a stuck object may hide among them: it does
// not say there is nothing to wait for.
func allCurrent(total int, typed, kind, resource string, skipped bool) string {
	end := ": nothing to wait for"
	if skipped {
		end = " by their status, as far as read (see the note below)"
	}
	if total == 1 {
		return fmt.Sprintf("the one %s found is Current%s", cmp.Or(kind, typed), end)
	}
	return fmt.Sprintf("all %d %s are Current%s", total, cmp.Or(resource, typed), end)
}
