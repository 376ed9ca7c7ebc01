package view

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The table's actions: what f, r, F and R act on, and what the dialog says
// of a next failure from the limiters the table last read.

// bucketed reports whether controller's limiter has a token bucket, as the
// last overview describes it.
func (t *TopModel) bucketed(controller string) bool {
	if t.Overview == nil || controller == "" {
		return false
	}
	c := t.Overview.Controller(controller)
	return c != nil && slices.ContainsFunc(c.Limiter.Components, func(lc api.LimiterComponent) bool { return lc.Name == api.SourceBucket })
}

// Forecast sets what act's dialog says of a next failure, from the
// limiters of the controllers it acts on as the last overview describes
// them: those with a token bucket, and explain.NextFailureWait when it
// acts on one controller ("" for several).
func (t *TopModel) Forecast(act *widget.Action) {
	on := act.ActedOn()
	act.Buckets = nil
	for _, c := range on {
		if t.bucketed(c) {
			act.Buckets = append(act.Buckets, c)
		}
	}
	act.NextWait = ""
	if t.Overview != nil && len(on) == 1 && on[0] != "" {
		act.NextWait = explain.NextFailureWait(t.Overview.Controller(on[0]))
	}
}

// Row is the key as the top view's page last read it; nil when the page
// does not hold it.
func (t *TopModel) Row(controller, key string) *api.Key {
	if p := t.Page; p != nil {
		for i := range p.Items {
			if k := &p.Items[i].Key; k.Controller == controller && k.Key == key {
				return k
			}
		}
	}
	return nil
}

// keyAction is forget or retry of the key under the cursor; forgetting a
// key with nothing to forget says so instead of asking.
func (t *Top) keyAction(requeue bool) Intent {
	sel := t.Selected()
	if sel == nil {
		return nil
	}
	if !requeue && sel.Failures == 0 && (sel.State == api.StateIdle || sel.State == api.StateScheduled) {
		return NoteIntent{Text: fmt.Sprintf("%s is %s with 0 failures: nothing to forget (r retries it now)", sel.Key.Key, sel.State)}
	}
	return AskIntent{Act: widget.OneKey(requeue, &sel.Key)}
}

// filteredSet is the action on every key the top view's filter selects.
func (t *Top) filteredSet(requeue bool) widget.Action {
	f := &api.Filter{Q: t.Filter.Applied, Error: t.Group.Pattern, States: t.StateList()}
	var what []string
	if t.Group.Pattern != "" {
		what = append(what, fmt.Sprintf("whose last error is \"%s\"", t.Group.Fingerprint))
	}
	if f.Q != "" {
		what = append(what, "matching "+widget.DescribeFilter(f.Q))
	}
	if len(f.States) > 0 {
		what = append(what, InStates(f.States))
	}
	if len(what) == 0 {
		what = append(what, "(ALL keys, no filter)")
	}
	return widget.Action{Requeue: requeue, Controllers: t.actionControllers(), Filter: f, What: strings.Join(what, ", ") + " of " + ScopeName(t.Controller)}
}

// actionControllers is the controller shown, or every one that accepts forget.
func (t *TopModel) actionControllers() []string {
	if t.Controller != "" {
		return []string{t.Controller}
	}
	var out []string
	if t.Overview != nil {
		for _, c := range t.Overview.Controllers {
			if c.Capabilities.Forgets() {
				out = append(out, c.Name)
			}
		}
	}
	return out
}
