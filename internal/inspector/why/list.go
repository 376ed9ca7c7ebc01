package why

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// Item is one object of a kind to judge, with its plural resource.
type Item struct {
	Object   *unstructured.Unstructured
	Resource string
}

// List is `why TYPE`: of the objects read, those that are not Current.
type List struct {
	// Total is how many objects of the kind were read.
	Total int `json:"total"`
	// Answers are the objects not Current, the longest-waiting change first.
	Answers []*Answer `json:"items"`
}

// List judges every item and answers for those not Current, the longest-
// waiting change first: the list `why TYPE` prints and `top --for TYPE`
// shows live. The verdict is judged first, so that only the objects not
// Current cost a search for their controller and a read of their key.
func (a *Asker) List(ctx context.Context, items []Item) *List {
	l := &List{Total: len(items), Answers: []*Answer{}}
	for _, it := range items {
		if a.judge(ctx, it.Object, it.Resource).Status == Current {
			continue
		}
		l.Answers = append(l.Answers, a.askOne(ctx, it.Object, it.Resource)) // no chain: one walk per object would not bound a list
	}
	slices.SortStableFunc(l.Answers, func(x, y *Answer) int { return cmp.Compare(y.Waiting.Duration, x.Waiting.Duration) })
	return l
}

// ControllerName is the controller in a few words, for a list's column:
// the controller found, else the status manager, "(no status manager)",
// or "-" when none was searched.
func (a *Answer) ControllerName() string {
	switch c := a.Controller; {
	case c == nil:
		return "-"
	case c.Rule == RuleNoManager:
		return "(no status manager)"
	case c.Name != "":
		return c.Name
	case len(a.Ownership.StatusManagers) > 0:
		return a.Ownership.StatusManagers[0].Manager
	}
	return "-"
}

// BackoffBrief is the key's backoff in a few words, for a list's column:
// "backoff 3×, retry 12s (exact)"; "not tracked", "unreadable" or "-".
func (a *Answer) BackoffBrief() string {
	b := a.Backoff
	switch {
	case b == nil && a.BackoffError != "":
		return "unreadable"
	case b == nil:
		return "-"
	case b.Key == nil:
		return "not tracked"
	}
	k := b.Key
	s := string(k.State)
	if k.Failures > 0 {
		s += fmt.Sprintf(" %d×", k.Failures)
	}
	if next := explain.NextRetryCompact(*k, b.ServerTime); next != "-" {
		switch k.State {
		case api.StateRunning:
			s += " for " + next // how long it has run: no retry is set yet
		default:
			s += ", retry " + next
		}
	}
	return s + " (" + b.Precision() + ")"
}
