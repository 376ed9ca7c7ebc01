package why

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

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
	// Kind and Resource are the items' kind and plural resource ("" when none).
	Kind     string `json:"kind,omitempty"`
	Resource string `json:"resource,omitempty"`
	// Answers are the objects not Current, the longest-waiting change first.
	Answers []*Answer `json:"items"`
	// EventsSkipped says that the Events of the objects kstatus calls
	// Current were not read (a list over maxListEvents objects), and how
	// to narrow it so they are; "" when they were read.
	EventsSkipped string `json:"eventsSkipped,omitempty"`
	// KeysSkipped counts the objects of a kind with no status (a
	// ConfigMap) whose key at hand (--addr, --from-logs) was not read, the
	// list being over maxListEvents: EventsSkipped says it in full; a
	// view with one line for it says which was skipped from this (in the
	// JSON too: the view's copy of the list goes through it).
	KeysSkipped int `json:"keysSkipped,omitempty"`
}

// List judges every item and answers for those not Current, the longest-
// waiting change first: the list `why TYPE` prints and `top --for TYPE`
// shows live. The verdict is judged first, so that only the objects not
// Current cost a search for their controller and a read of their key.
func (a *Asker) List(ctx context.Context, items []Item) *List {
	l := &List{Total: len(items), Answers: []*Answer{}}
	if len(items) > 0 {
		l.Kind, l.Resource = items[0].Object.GetKind(), items[0].Resource
	}
	if a.Events != nil && len(items) > maxListEvents {
		// Said, not silent: a stuck object kstatus calls Current (a Job
		// whose pods are refused) is found only by its Events.
		l.EventsSkipped = fmt.Sprintf("the Events of the objects kstatus calls Current were not read (%d objects, over %d): one stuck with a Current status "+
			"(a Job whose pods are refused) is not listed; narrow the list to read them: a name, a label selector, or one namespace", len(items), maxListEvents)
	}
	objects := map[*Answer]Item{}
	keysSkipped := 0
	atHand := a.readsKeysAtHand()
	searched := atHand
	for _, it := range items {
		v := a.judge(ctx, it.Object, it.Resource)
		if v.Status == Current && len(items) <= maxListEvents {
			// A Job whose pods are refused reads Current to kstatus: its
			// recurring FailedCreate say otherwise (one read per object).
			v = a.judgeWithEvents(ctx, it.Object, it.Resource)
		}
		if v.Status == Current && v.KindNoStatus && !searched {
			searched, atHand = true, a.instrumentedKind(ctx, it.Object.GroupVersionKind().GroupKind())
		}
		byKey := v.Status == Current && v.KindNoStatus && atHand
		if byKey && len(items) > maxListEvents {
			keysSkipped++
		}
		if v.Status == Current && (!byKey || len(items) > maxListEvents) {
			continue
		}
		ans := a.askOne(ctx, it.Object, it.Resource)
		if ans.Verdict.Status == Current {
			continue
		}
		objects[ans] = it
		l.Answers = append(l.Answers, ans)
	}
	if l.KeysSkipped = keysSkipped; keysSkipped > 0 {
		// Said too: kstatus calls every one Current, failing or not.
		l.EventsSkipped = strings.TrimPrefix(l.EventsSkipped+"; ", "; ") + fmt.Sprintf("the controller's keys of the %d objects with no status were not read (%d objects, over %d): "+
			"one it fails on is not listed; narrow the list to read them: a name, a label selector, or one namespace", keysSkipped, len(items), maxListEvents)
	}
	slices.SortStableFunc(l.Answers, func(x, y *Answer) int { return cmp.Compare(y.Waiting.Duration, x.Waiting.Duration) })
	a.listChains(ctx, l.Answers, objects)
	return l
}

// readsKeysAtHand says whether the user named where the controller's keys
// are read without a search or a port-forward: its endpoint (--addr, an
// operator run with go run) or its log file. A kind with no status (a
// ConfigMap) is then judged by its key, as `why TYPE/NAME` judges it:
// kstatus alone calls every one Current, the failing ones too.
func (a *Asker) readsKeysAtHand() bool { return a.Direct != nil || a.FromLog != nil }

// instrumentedKind says whether the controller of kind gk runs in pods
// with an endpoint, named by the user or found by the kind: its keys are
// at hand too, so `why configmaps` lists the ConfigMaps it fails on, as
// `why configmap/NAME` answers each. One search a list (Find keeps it).
func (a *Asker) instrumentedKind(ctx context.Context, gk schema.GroupKind) bool {
	if a.Finder == nil || a.Keys == nil {
		return false
	}
	c, _ := a.Finder.Find(ctx, gk, nil, a.Given)
	return c.Found() && c.Instrumented
}

// Bounds of the chains a list walks: a walk per object would not bound a
// list of thousands, so only the longest-waiting are walked, in a budget.
const (
	// maxListEvents bounds the lists whose Current objects' Events are read.
	maxListEvents   = 100
	maxListChains   = 10
	listChainBudget = 20 * time.Second
)

// listChains walks the chain of the first maxListChains answers, so that
// each can say what blocks it (BlockerLine); the blockers are not asked
// about (each would cost a search and a read): `why TYPE/NAME` does that.
func (a *Asker) listChains(ctx context.Context, answers []*Answer, objects map[*Answer]Item) {
	if a.Graph == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, listChainBudget)
	defer cancel()
	for _, ans := range answers[:min(len(answers), maxListChains)] {
		if ctx.Err() != nil {
			return
		}
		it := objects[ans]
		ans.Chain = a.Graph.Walk(ctx, it.Object, func(x *unstructured.Unstructured, res string) Verdict { return a.judge(ctx, x, res) })
	}
}

// BlockerLine is what blocks the object, in one line, when its chain was
// walked and the blocker is another object: "replicaset.apps/web-1:
// ReplicaFailure=True (FailedCreate): … exceeded quota …", with how many
// other blockers there are; "" when the object is its own blocker, or the
// chain was not walked.
func (a *Answer) BlockerLine() string {
	b, more := a.ChainBlocker()
	if b == nil {
		return ""
	}
	return b.Object.Ref() + ": " + b.Said() + MoreBlockers(more)
}

// ChainBlocker is the first blocker of the walked chain other than the
// object itself, and how many more there are; nil when none.
func (a *Answer) ChainBlocker() (*Node, int) { return a.Chain.Blocker() }

// Blocker is the chain's first blocker other than its root, and how many
// more there are; nil when none (or c is nil).
func (c *Chain) Blocker() (*Node, int) {
	if c == nil {
		return nil, 0
	}
	var others []*Node
	for _, b := range c.Blockers() {
		if b != c.Root {
			others = append(others, b)
		}
	}
	if len(others) == 0 {
		return nil, 0
	}
	return others[0], len(others) - 1
}

// MoreBlockers is " (and N more)", or "" for none.
func MoreBlockers(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d more)", n)
}

// Said is the node's why in one line; for a reference to nothing, that it
// does not exist and what names it.
func (n *Node) Said() string {
	if n.Status == NotFound {
		return "does not exist (" + n.Via + ")"
	}
	return oneLine(n.Line)
}

// ControllerName is the controller in a few words, for a list's column:
// the controller found, else the status manager, else the controller whose
// log holds the key, "(no status manager)", or "-" when none was searched.
func (a *Answer) ControllerName() string {
	switch c := a.Controller; {
	case (c == nil || c.Rule == RuleNoManager) && a.Backoff != nil && a.Backoff.Key != nil && a.Backoff.Controller != "":
		// A ConfigMap read off --from-logs: the log's controller fails on
		// it, as MESSAGE says; "(no status manager)" beside it read as none.
		return a.Backoff.Controller
	case c == nil:
		return "-"
	case c.Rule == RuleNoManager:
		return "(no status manager)"
	case c.Name != "":
		return c.Name
	case c.Rule == RuleInstrumented && a.Backoff != nil && a.Backoff.Key != nil && a.Backoff.Controller != "":
		// A pod running several controllers of the kind: the one that has the key.
		return a.Backoff.Controller
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
