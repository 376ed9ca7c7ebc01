package why

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// LogFile is a controller's log the user has (a file, or standard input),
// for a control plane whose pods are not visible (a managed cluster's
// exported logs, kind's or minikube's files, a journalctl dump): read once
// into log mode's store, the key's backoff read from it instead of a pod.
type LogFile struct {
	Store *logs.Store
	// Name is the file, or "stdin", as the answer says it.
	Name string
	// Controller is whose log it is, as the user knows it — the status manager in managedFields ("kube-controller-manager")
	// or a controller the log names ("configmap"); "" reads it for every
	// object.
	Controller string
}

// covers says whether the file is the log of o's controller (o is the
// ownership of the object ref, of kind gk); when it is not, why not in the
// user's words (the names the log's controller could take), so that a log
// is never dropped in silence.
func (f *LogFile) covers(ref string, gk schema.GroupKind, o Ownership) (bool, string) {
	if f.Controller == "" || slices.ContainsFunc(o.StatusManagers, func(c Change) bool { return c.Manager == f.Controller }) {
		return true, ""
	}
	// No status manager, and a kind one of kube-controller-manager's
	// controllers reconciles: its log is that controller's. A Pending claim
	// is the binder's, which writes its status only when it binds it.
	if _, ok := kcmControllers[gk]; ok && f.Controller == kcmManager && len(o.StatusManagers) == 0 {
		return true, ""
	}
	names := f.controllers()
	if slices.Contains(names, f.Controller) {
		return true, ""
	}
	var managers []string
	for _, c := range o.StatusManagers {
		managers = append(managers, c.Manager)
	}
	has := "no controller's failures"
	if len(names) > 0 {
		has = "controllers " + strings.Join(names, ", ")
	}
	writes := "managedFields name no status manager"
	if len(managers) > 0 {
		writes = "its status is written by " + strings.Join(managers, ", ")
	}
	return false, text.Printable(fmt.Sprintf("the controller named for the log, %s, is neither a controller of %s (it has %s) nor the status manager of %s (%s): the log was not read for it; name one of those, or none to read the log for every object",
		f.Controller, f.Name, has, ref, writes))
}

// dropLogNote takes the log's note (covers) out of a blocker's answer:
// the user named the log's controller for the object asked about, whose
// own answer says whether the log was read for it. A blocker the named
// controller does not write (a Pending pod below a Deployment, whose
// status is the kubelet's and the scheduler's, not
// kube-controller-manager's) is not what the log was named for, and its
// note, listed in the root's steps, read as the root's.
func (a *Answer) dropLogNote() {
	if a.logNote == "" {
		return
	}
	a.Next = slices.DeleteFunc(a.Next, func(s string) bool { return s == a.logNote })
	a.logNote = ""
}

// controllers are the controllers the log names, sorted.
func (f *LogFile) controllers() []string {
	var names []string
	for _, c := range f.Store.Controllers().Controllers {
		names = append(names, c.Name)
	}
	return names
}

// LiveWithin is how far behind the clock a log's last line may be for
// `why` to read the log as the control plane's present one (its times
// counted from now, as the cluster's are); an older log is a saved one, its
// times counted from its last line, and the answer says so. Log mode's
// bound for a pipe (cli's oldLog) is the same hour.
const LiveWithin = time.Hour

// backoff reads key from the file, its times counted from one clock: now
// when the log is live (its last line within LiveWithin), else its last
// line (Backoff.AsOf).
func (f *LogFile) backoff(key string, now time.Time) (*Backoff, error) {
	b := &Backoff{Source: SourceLogs, Note: "read from " + f.Name}
	b.ServerTime = now
	if end := f.Store.Controllers().ServerTime; !end.IsZero() && now.Sub(end) > LiveWithin {
		b.ServerTime, b.AsOf = end, end
		b.Note = fmt.Sprintf("read from %s as of its last line, %s (%s): a saved log, so its times count from that line, not from now",
			f.Name, text.Timestamp(end), text.Ago(end, now))
	}
	controller := ""
	if slices.Contains(f.controllers(), f.Controller) {
		controller = f.Controller // the user named the log's controller
	}
	d, err := f.Store.Key(controller, key)
	if _, ok := errors.AsType[*logs.NotFoundError](err); ok {
		b.NotTracked = fmt.Sprintf("%s has no failure for %s: at the default verbosity only failures are logged, so it has not failed on it while the log ran", f.Name, key)
		return b, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the log %s: %w", f.Name, err)
	}
	k := d.Key
	b.Key, b.Controller = &k, k.Controller
	return b, nil
}
