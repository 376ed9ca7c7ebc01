package view

import (
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// A forget or retry pressed where the source cannot do it is answered, not
// ignored: the disabled bindings would drop the key in silence. Why comes
// from the capabilities v1/controllers reports and where the keys come
// from (a log, a snapshot), never from a message's words.

// source is what the last v1/controllers said of where the keys come from
// and what may be done with them (common.setCapabilities keeps it).
type source struct {
	// fromLogs: a controller was reconstructed from its log (Source logs).
	fromLogs bool
	// readOnly: every controller reports Capabilities.ReadOnly.
	readOnly bool
}

func sourceOf(ov *inspector.Overview) source {
	ctls := ov.Controllers
	return source{
		fromLogs: ov.Source.Logged(),
		readOnly: len(ctls) > 0 && !slices.ContainsFunc(ctls, func(c api.Controller) bool { return !c.Capabilities.ReadOnly }),
	}
}

// refusal says why forget (or, with retry, retry now) is not possible here
// and what to do instead; key, when one is selected, is named in the
// command to run instead.
func (c *Common) refusal(retry bool, key string) string {
	switch {
	case c.source.fromLogs:
		// A log only tells what the controller did: kick's watch event is
		// the log mode's retry, a command spelt by explain.Command.
		kick, what := explain.Command{Verb: "kick", Target: true, Flags: []explain.Flag{{Name: "from-logs"}}, Words: []string{"KEY"}}, "retries a key"
		if key != "" {
			kick.Words, what = []string{explain.ShellQuote(key)}, "retries it"
		}
		return "read-only: a log cannot forget or retry; " + text.Printable(kick.Render(c.Opts.LogAt)) + " " + what + " now (its failure count stays)"
	case c.Snapshot():
		return "read-only: a snapshot (taken at " + c.SnapshotAt().UTC().Format("2006-01-02 15:04:05Z") +
			") cannot forget or retry; to act, attach to the controller: kubectl backoff top TARGET"
	case c.source.readOnly:
		return "read-only: the endpoint refuses forget and retry (it was started read-only)"
	case retry && !c.readOnly:
		return "retry now needs the controller's queue, which is not instrumented (probe.ControllerOptions wraps it); f forgets the backoff without a retry"
	}
	return "forget is not available: no controller here has an instrumented rate limiter (probe.ControllerOptions wraps it)"
}

// StillText says why p and ctrl+r do nothing over a snapshot.
func (c *Common) StillText() string {
	return "a snapshot does not change: nothing to pause or refresh (its times stay as they were at " +
		text.TimeOfDay(c.SnapshotAt()) + "Z" + "); to watch live, kubectl backoff top TARGET"
}

// RefusedIntent answers a refused action key on the selected key ("" for
// none), or nil when msg is none.
func (c *Common) RefusedIntent(refusedForget, refusedRetry bool, key string) Intent {
	switch {
	case refusedRetry:
		return NoteIntent{Text: c.refusal(true, key), IsErr: true}
	case refusedForget:
		return NoteIntent{Text: c.refusal(false, key), IsErr: true}
	}
	return nil
}
