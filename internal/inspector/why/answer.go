package why

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Object names the object asked about.
type Object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Resource is the plural resource, as RBAC and kubectl name it.
	Resource  string `json:"resource,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Key is the work-queue key controllers give it: NAMESPACE/NAME or NAME.
	Key string `json:"key"`
}

// Answer is everything `why` says about one object.
type Answer struct {
	Object    Object    `json:"object"`
	Verdict   Verdict   `json:"verdict"`
	Ownership Ownership `json:"ownership"`
	// Controller is who owns the status and how it was found.
	Controller *Controller `json:"controller,omitempty"`
	// Backoff is what that controller does with the key; BackoffError why
	// it could not be read.
	Backoff      *Backoff          `json:"backoff,omitempty"`
	BackoffError string            `json:"backoffError,omitempty"`
	Events       []objstatus.Event `json:"events,omitempty"`
	// EventsNotRead says the object's Events were not read (no cluster,
	// as why -f FILE --addr; or the read was refused): no Events then is
	// not "none".
	EventsNotRead bool `json:"eventsNotRead,omitempty"`
	// Refused are the reads the user may not make, each saying what for.
	Refused []string `json:"refused,omitempty"`
	// Summary is the answer in one sentence; Next the steps to take.
	Summary string   `json:"summary"`
	Next    []string `json:"next,omitempty"`
	// Waiting is how long the latest spec change has waited (zero when it
	// is reconciled, or unknown): what `why TYPE` sorts by.
	Waiting metav1.Duration `json:"waiting,omitzero"`
	Now     time.Time       `json:"now"`
	// Chain is what the object waits for, when the asker walks it; Blockers
	// the answers for its blockers other than the object itself.
	Chain *Chain `json:"chain,omitempty"`
	// Retry is set when the user changed what refused the controller after
	// its last failure: when the controller will see it, and the kick.
	Retry    *Retry    `json:"retry,omitempty"`
	Blockers []*Answer `json:"blockers,omitempty"`
	// logNote is why the log the user gave was not read for this object
	// (--controller-log names another controller), first in Next: said
	// for the object asked about, never for a blocker (logfile.go).
	logNote string
	// fixSteps are the steps of Next that ask for the fix of the key's
	// last error and the retry after it: what the user's change, when it
	// came after that error, has done already (fixMade).
	fixSteps []string
	// backoffFrom is the blocker whose backoff Backoff is (blockingBackoff),
	// "" when it is the object's own: its wait is said once, as the blocker's.
	backoffFrom string
	// rv is the resourceVersion of the object as it was read: a watch
	// started after the answer compares it (Reads).
	rv string
}

// Asker answers `why` for objects.
type Asker struct {
	Finder *Finder
	Keys   KeyReader
	// Events reads an object's Events; nil skips them.
	Events func(ctx context.Context, u *unstructured.Unstructured) ([]objstatus.Event, error)
	// Given is the controller's pods as the user named them, nil to search.
	Given *Given
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
	// Kinds says whether a kind's status is always written (a CRD's status
	// subresource); nil judges by the built-ins' rules alone.
	Kinds Kinds
	// Graph reads the chain; nil answers for the object alone.
	Graph *Graph
	// Direct is the endpoints the user named by address: an object whose
	// kind they reconcile is answered from them.
	Direct *Direct
	// FromLog is the controller's log the user gave: the
	// backoff is read from it, not from a pod.
	FromLog *LogFile
	// PodLogs reads the backoff from the log of the controller's pods even
	// when they are instrumented: the user asked for the log, not the
	// endpoint. Without it, an instrumented controller's endpoint is read.
	PodLogs bool
	// Hint completes the next steps' commands (the object's resource for kick).
	Hint CommandHint

	cache eventCache
}

// CommandHint is what the commands suggested next need to name.
type CommandHint struct {
	// Program is how the user runs the plugin. Defaults to "kubectl backoff".
	Program string
}

// program is how the user runs the plugin.
func (h CommandHint) program() string {
	if h.Program == "" {
		return "kubectl backoff"
	}
	return h.Program
}

// maxBlockerAnswers bounds the blockers asked about (each costs a search
// for its controller and a read of its key).
const maxBlockerAnswers = 3

// Ask answers for object u of the given resource (plural, "" if unknown):
// for the object, and with a Graph for the chain's blockers.
func (a *Asker) Ask(ctx context.Context, u *unstructured.Unstructured, resource string) *Answer {
	ans := a.askOne(ctx, u, resource)
	if a.Graph == nil {
		return ans
	}
	ans.Chain = a.Graph.Walk(ctx, u, func(x *unstructured.Unstructured, res string) Verdict { return a.judgeWithEvents(ctx, x, res) })
	answered := map[*Node]bool{}
	for _, b := range ans.Chain.Blockers() {
		if b.Named && (b.Status == Refusing || b.Status == NotFound) {
			// Nothing reconciles a quota into room or creates a missing
			// ServiceAccount: the user changes it. The object it refused
			// is answered for: its controller's backoff is the wait.
			if p := ans.Chain.Path(b); len(p) >= 2 {
				b = p[len(p)-2]
			}
		}
		if b == ans.Chain.Root || b.u == nil || b.Status == Refusing || answered[b] {
			continue
		}
		answered[b] = true
		if len(ans.Blockers) == maxBlockerAnswers {
			ans.Chain.Cut = append(ans.Chain.Cut, fmt.Sprintf("only the first %d blockers are answered for", maxBlockerAnswers))
			break
		}
		ba := a.askOne(ctx, b.u, b.Object.Resource)
		ba.dropLogNote()
		ba.Retry = retryOf(ba, b, a.Hint.program())
		ans.Blockers = append(ans.Blockers, ba)
	}
	if ans.Chain.Root.Blocker {
		ans.Retry = retryOf(ans, ans.Chain.Root, a.Hint.program())
	}
	a.retryWaits(ctx, ans, answered)
	blockingBackoff(ans) // conflict.go
	notFailing(ans)
	ans.Summary, ans.Next = chainSummary(ans)
	if ans.logNote != "" && !slices.Contains(ans.Next, ans.logNote) {
		ans.Next = append([]string{ans.logNote}, ans.Next...) // the chain's summary may leave the root's own steps out
	}
	return ans
}

// askOne answers for one object: its verdict, controller, backoff, events.
func (a *Asker) askOne(ctx context.Context, u *unstructured.Unstructured, resource string) *Answer {
	ans := &Answer{Object: objectOf(u, resource), Verdict: a.judgeWithEvents(ctx, u, resource), Ownership: ownershipOf(u.GetManagedFields()), Now: a.now(),
		rv: u.GetResourceVersion()}
	gk := u.GroupVersionKind().GroupKind()
	if a.Direct != nil {
		c, b, err := a.Direct.controller(ctx, ans)
		ans.Controller, ans.Backoff = c, b
		if err != nil {
			ans.BackoffError = err.Error()
		}
	}
	fromLog, unused := false, ""
	if a.FromLog != nil {
		fromLog, unused = a.FromLog.covers(ans.Object.Ref(), gk, ans.Ownership)
	}
	if a.Finder != nil && ans.Controller == nil {
		c, refused := a.Finder.Find(ctx, gk, ans.Ownership.StatusManagers, a.Given)
		ans.Controller = c
		if fromLog && !c.Found() && c.Manager != "" {
			// Its log is not out of reach, nor its pods needed: the user
			// gave the log (a managed control plane's, a tenant's).
			c.How = fmt.Sprintf("the status manager %q has no pod you can see (a managed control plane, or one hidden from you): its log is read from %s, the file you gave",
				c.Manager, a.FromLog.Name)
			refused = nil
		}
		ans.refuse(refused...)
	}
	if fromLog {
		b, err := a.FromLog.backoff(ans.Object.Key, ans.Now)
		ans.Backoff = b
		if err != nil {
			ans.BackoffError = err.Error()
		}
		if c := ans.Controller; c != nil && c.Rule == RuleNoManager && b != nil && b.Key != nil {
			// managedFields name nobody, but the log does: one story.
			c.How = fmt.Sprintf("managedFields name no status manager, but %s names controller %q reconciling this key", a.FromLog.Name, b.Controller)
		}
	} else if ans.Controller != nil && ans.Controller.NotRunning == "" && ans.Controller.Rule != RuleAddr {
		b, err := readBackoff(ctx, a.Keys, ans.Controller, gk, ans.Object.Key, a.PodLogs)
		ans.Backoff = debugOnlyFailures(b, ans.Verdict, ans.Controller)
		if err != nil {
			ans.BackoffError = err.Error()
			var r *RefusedError
			if errors.As(err, &r) {
				ans.refuse(r)
			}
		}
	}
	kcmName(ans.Backoff, gk, ans.Ownership)
	ans.EventsNotRead = a.Events == nil
	if a.Events != nil {
		ev, err := a.eventsOf(ctx, u)
		if err != nil {
			ans.refuse(Refused(err, "list", "events", u.GetNamespace(), "to show the object's recent Events"))
			ans.EventsNotRead = true
		}
		ans.Events = ev
	}
	if ans.Verdict.Status != Current && ans.Ownership.SpecChange != nil && !ans.Ownership.SpecChange.Time.IsZero() {
		ans.Waiting.Duration = ans.Now.Sub(ans.Ownership.SpecChange.Time)
	}
	controllerVerdict(ans)
	ans.Summary, ans.Next = summarize(ans, a.Hint)
	if s, next, ok := unscheduled(u, ans.Verdict); ok {
		ans.Summary, ans.Next = s, next // the scheduler's to answer, not a controller's
	}
	if next, ok := unclassedClaim(u, ans.Verdict); ok {
		ans.Next = next // the user's to fix, not a controller's to install
		if c := ans.Controller; c != nil && c.Rule == RuleNoManager {
			c.How = binderHow
		}
	}
	if s, next, ok := waitingProvisioner(u, ans.Verdict, ans.Events, ans.Now); ok { // pvcprovisioner.go
		ans.Summary, ans.Next = s, next // a provisioner to start, not a controller to install
		if c := ans.Controller; c != nil && c.Rule == RuleNoManager {
			c.How = binderHow
		}
	}
	if unused != "" {
		ans.logNote = sentence(unused)
		ans.Next = append([]string{ans.logNote}, ans.Next...)
	}
	return ans
}

// refuse records the refused reads among errs (other errors are not the
// user's permissions and are said where they happened).
func (a *Answer) refuse(errs ...error) {
	for _, err := range errs {
		var r *RefusedError
		if errors.As(err, &r) {
			a.Refused = append(a.Refused, r.Error())
		}
	}
}

func objectOf(u *unstructured.Unstructured, resource string) Object {
	o := Object{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Resource: resource, Namespace: u.GetNamespace(), Name: u.GetName(), Key: u.GetName()}
	if o.Namespace != "" {
		o.Key = o.Namespace + "/" + o.Name
	}
	return o
}

// Ref is the object as kubectl names it: kind.group/name.
func (o Object) Ref() string {
	kind := strings.ToLower(o.Kind)
	if g, _, ok := strings.Cut(o.APIVersion, "/"); ok {
		kind += "." + g
	}
	return kind + "/" + o.Name
}

// groupKind is the object's group and kind.
func (o Object) groupKind() schema.GroupKind {
	return schema.FromAPIVersionAndKind(o.APIVersion, o.Kind).GroupKind()
}

// GenerationLine is the first line of the answer: the generation, who
// changed it when, and what the controller has observed.
func (a *Answer) GenerationLine() string {
	return objstatus.GenerationLine(a.Verdict, a.Ownership.SpecChange, func(t time.Time) string { return text.Ago(t, a.Now) })
}

// Clock is the one time every countdown and age of the answer's backoff
// counts from: the controller's (its endpoint's server time, a live log's
// now), or a saved log's last line (Backoff.AsOf) — never two in one answer.
func (a *Answer) Clock() time.Time {
	if b := a.Backoff; b != nil && !b.ServerTime.IsZero() {
		return b.ServerTime
	}
	return a.Now
}
