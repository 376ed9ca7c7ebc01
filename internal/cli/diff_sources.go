package cli

import (
	"fmt"
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// fromLog reports whether f was taken from a controller's log (snapshot
// --from-logs) rather than an instrumented endpoint: a replica's source
// says so (or, in a file without one, its keys say Source "logs").
func fromLog(f *snapshot.File) bool {
	for _, e := range f.Endpoints {
		if e.Source.Logged() || slices.ContainsFunc(e.Keys, func(k api.Key) bool { return k.Source == api.SourceLogs }) {
			return true
		}
	}
	return false
}

// sourceText says where f came from: "an endpoint (127.0.0.1:8082)",
// "a log (log of deploy/x)".
func sourceText(f *snapshot.File) string {
	kind := "an endpoint"
	if fromLog(f) {
		kind = "a log"
	}
	if f.Source == "" {
		return kind
	}
	return kind + " (" + f.Source + ")"
}

// warnSources warns on stderr when BEFORE and AFTER come from different
// kinds of source. A log knows only the keys it logged, and a key it saw
// fail then go quiet is unknown, where an endpoint says idle: compared
// with an endpoint's snapshot, keys change state only because the source
// changed, and the endpoint's keys the log never saw look untracked.
func (o *DiffOptions) warnSources() {
	beforeLog, afterLog := fromLog(o.before), fromLog(o.after)
	if beforeLog == afterLog {
		return
	}
	fmt.Fprintf(o.ErrOut, "Warning: BEFORE %s is a snapshot of %s, AFTER %s of %s: a log knows only the keys it logged, and says unknown where an endpoint says idle, so some changes below come from the change of source, not of the keys.",
		o.beforePath, sourceText(o.before), o.afterPath, sourceText(o.after))
	endpoint, log, logName := o.before, o.after, "AFTER"
	if beforeLog {
		endpoint, log, logName = o.after, o.before, "BEFORE"
	}
	inLog := log.Keys()
	unseen := 0
	for k := range endpoint.Keys() {
		if _, ok := inLog[k]; !ok {
			unseen++
		}
	}
	if unseen > 0 {
		fmt.Fprintf(o.ErrOut, " %s of the endpoint's are not in %s's log (it never logged them).", text.Plural(unseen, "key"), logName)
	}
	fmt.Fprintln(o.ErrOut, " Compare two snapshots of the same source: both with --from-logs, or both without.")
}
