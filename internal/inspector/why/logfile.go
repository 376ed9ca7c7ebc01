package why

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// LogFile is a controller's log the user has (`why --from-logs FILE|-`),
// for a control plane whose pods are not visible (a managed cluster's
// exported logs, kind's or minikube's files, a journalctl dump): read once
// into log mode's store, the key's backoff read from it instead of a pod.
type LogFile struct {
	Store *logs.Store
	// Name is the file, or "stdin", as the answer says it.
	Name string
	// Controller is --controller-log: the status manager whose log it is
	// ("kube-controller-manager"); "" reads it for every object.
	Controller string
}

// covers says whether the file is the log of o's controller.
func (f *LogFile) covers(o Ownership) bool {
	return f.Controller == "" || slices.ContainsFunc(o.StatusManagers, func(c Change) bool { return c.Manager == f.Controller })
}

// backoff reads key from the file.
func (f *LogFile) backoff(key string) (*Backoff, error) {
	b := &Backoff{Source: SourceLogs, Note: "read from " + f.Name}
	d, err := f.Store.Key("", key)
	if _, ok := errors.AsType[*logs.NotFoundError](err); ok {
		b.NotTracked = fmt.Sprintf("%s has no failure for %s: at the default verbosity only failures are logged, so it has not failed on it while the log ran", f.Name, key)
		return b, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--from-logs %s: %w", f.Name, err)
	}
	k := d.Key
	b.Key, b.Controller, b.ServerTime = &k, k.Controller, d.ServerTime
	return b, nil
}
