package why

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Where a key's backoff was read.
const (
	SourceEndpoint = "endpoint" // the instrument's own records: exact
	SourceLogs     = "logs"     // the controller's log: estimated, or stated where the log says the next retry
)

// Backoff is what the object's controller is doing with its key.
type Backoff struct {
	// Source is SourceEndpoint or SourceLogs; Controller the controller that
	// tracks the key.
	Source     string `json:"source"`
	Controller string `json:"controller,omitempty"`
	// Key is the key as the endpoint or the log reports it; nil when the
	// controller does not track it (NotTracked says what that means).
	Key        *api.Key  `json:"key,omitempty"`
	ServerTime time.Time `json:"serverTime,omitzero"`
	// AsOf is set when the times are judged at a saved log's last line,
	// not now (LogFile): the answer counts from it, and says so.
	AsOf       time.Time `json:"asOf,omitzero"`
	NotTracked string    `json:"notTracked,omitempty"`
	// Note says why the source is what it is (an instrumented pod that runs
	// no controller of the kind, so its log was read).
	Note string `json:"note,omitempty"`
	// Requeues says the endpoint can forget the key and retry it now: its
	// controller's queue is instrumented and forget is allowed
	// (api.Capabilities). Otherwise a retry now touches the object.
	Requeues bool `json:"-"`
	// RetryNow is the command that retries the key now: forget --requeue
	// where the endpoint can, else kick (a log cannot reset a backoff: a
	// kick touches the object so that its watch retries it). Set with the
	// answer's summary; what a watch that waits for the retry offers.
	RetryNow string `json:"-"`
}

// Precision says how the numbers were obtained: "exact", "estimated" or "stated".
func (b *Backoff) Precision() string {
	switch {
	case b.Source == SourceEndpoint:
		return "exact"
	case b.Key != nil && !b.Key.Estimated:
		return "stated"
	}
	return "estimated"
}

// SourceText says where the backoff was read, and how exact it is.
func (b *Backoff) SourceText() string {
	if b.Source == SourceLogs {
		return fmt.Sprintf("the controller's log (%s)", b.Precision())
	}
	return "the controller's endpoint (exact)"
}

// KeyReader reads a key from a controller's pods.
type KeyReader interface {
	// Endpoint reads key from the instrumented endpoint of c's pods; the
	// controller is the one of kind gk (or c.Name). ErrNoController when
	// the endpoint runs none of that kind.
	Endpoint(ctx context.Context, c *Controller, gk schema.GroupKind, key string) (*Backoff, error)
	// Logs reads key from the log of c's pods.
	Logs(ctx context.Context, c *Controller, key string) (*Backoff, error)
}

// ErrNoController says an instrumented endpoint runs no controller of the kind.
var ErrNoController = errors.New("the endpoint runs no controller of this kind")

// readBackoff reads the key's backoff: the endpoint when the pods are
// instrumented (exact), else the log. An endpoint that runs no controller of
// the kind, or cannot be reached (pods/portforward refused, a pod down), is
// said in the note, and the log is read instead. podLogs reads the log
// whatever the pods are (Asker.PodLogs).
func readBackoff(ctx context.Context, r KeyReader, c *Controller, gk schema.GroupKind, key string, podLogs bool) (*Backoff, error) {
	if !c.Found() || r == nil {
		return nil, nil
	}
	var note string
	var endpointErr error
	switch {
	case c.Instrumented && podLogs:
		note = fmt.Sprintf("%s is instrumented: its log was read, as asked, not its endpoint (exact)", c.Target)
	case c.Instrumented:
		b, err := r.Endpoint(ctx, c, gk, key)
		switch {
		case err == nil:
			return b, nil
		case errors.Is(err, ErrNoController):
			note = fmt.Sprintf("%s is instrumented, but its endpoint runs no controller of kind %s: its log was read instead", c.Target, gk)
		default:
			endpointErr = err
			note = fmt.Sprintf("the endpoint of %s could not be read (%v): its log was read instead", c.Target, err)
		}
	}
	b, err := r.Logs(ctx, c, key)
	if err != nil && endpointErr != nil {
		return nil, errors.Join(endpointErr, err)
	}
	if b != nil && b.Note == "" {
		b.Note = note
	}
	return b, err
}

// controllerOfKind picks, from an endpoint's controllers, the one of kind
// gk, or the one named name.
func controllerOfKind(list []api.Controller, gk schema.GroupKind, name string) (string, error) {
	found := controllersOfKind(list, gk, name)
	switch len(found) {
	case 0:
		return "", ErrNoController
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("controllers %v all reconcile kind %s: the key is looked up in the first", found, gk)
}

// controllersOfKind is the controllers of list named name, or (name empty)
// reconciling kind gk: an operator's several controllers may all
// reconcile ConfigMaps, each its own keys.
func controllersOfKind(list []api.Controller, gk schema.GroupKind, name string) []string {
	var found []string
	for _, c := range list {
		if (name != "" && c.Name == name) || (name == "" && c.Kind != nil && c.Kind.Group == gk.Group && c.Kind.Kind == gk.Kind) {
			found = append(found, c.Name)
		}
	}
	return found
}

// isNotFound reports whether err is the endpoint's or the log's 404 for a key.
func isNotFound(err error) bool {
	if ae, ok := errors.AsType[*inspector.APIError](err); ok {
		return ae.Code == http.StatusNotFound
	}
	return false
}

// notFailing words the backoff of an object whose own controller has not
// failed on it while a blocker's controller fails: the silence of its log
// on the key is the answer (a Deployment's controller is not failing; its
// ReplicaSet's is), not a line missing. The log's own words stay as the
// note.
func notFailing(a *Answer) {
	b := a.Backoff
	if b == nil || b.Key != nil || b.NotTracked == "" {
		return
	}
	who := "its controller"
	switch ctl, ok := kcmControllers[a.Object.groupKind()]; {
	case ok && isKCM(a):
		who = "the " + ctl.Name
	case b.Controller != "":
		who = controllerWords(b.Controller)
	}
	var x *Answer
	for _, y := range a.Blockers {
		if failing(y) {
			x = y
			break
		}
	}
	if x == nil {
		return // what it waits for is not failing either (pods not ready)
	}
	by := ""
	if xb := x.Backoff; xb != nil && xb.Key != nil && xb.Controller != "" {
		by = fmt.Sprintf(", where %s is failing on %s", controllerWords(xb.Controller), xb.Key.Key)
	}
	b.Note = strings.TrimPrefix(b.Note+"; "+b.NotTracked, "; ")
	b.NotTracked = fmt.Sprintf("%s: %s is not failing on it; what fails is %s%s (its answer is below)", a.Object.Key, who, x.Object.Ref(), by)
}

// controllerWords names a controller in a sentence: "the
// replicaset-controller", `controller "gadget"`.
func controllerWords(name string) string {
	if strings.HasSuffix(name, "-controller") {
		return "the " + name
	}
	return fmt.Sprintf("controller %q", name)
}

// failing says whether a's controller fails on it: its backoff says so, or
// the object's own evidence (failure conditions, recurring failure events).
func failing(a *Answer) bool {
	if b := a.Backoff; b != nil && b.Key != nil && (b.Key.State == api.StateBackoff || b.Key.State == api.StateFailed) {
		return true
	}
	return len(a.Verdict.Failures) > 0
}
