package explain

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// KeyRow is one key as a table of keys shows it, cell by cell: what the
// TUI's table (`top`) and `kubectl backoff get` print for a key, computed
// once so that the two cannot disagree. The cells are the cluster's text
// as read: the caller escapes them where it draws them.
type KeyRow struct {
	// Controller, Key and Pod name the row.
	Controller, Key, Pod string
	// State is what the key is doing now ("backoff").
	State string
	// Failures is the consecutive failures, as the rate limiter counts
	// them; Total, the failures since the key was first seen. Both end in
	// "+" for a key of a sampled log (api.Key.Undercounted): at least.
	Failures, Total string
	// NextRetry is when the key is tried again (NextRetryText):
	// "4m12s", "due", "ready", "running 4s", "-".
	NextRetry string
	// Running says the key is running, for RunningFor: a narrow column
	// says how long in its own words (the table's "for 4s").
	Running    bool
	RunningFor time.Duration
	// Delay is the delay the limiter chose, "-" for none; Source, which
	// limiter chose it, "-" for none.
	Delay, Source string
	// FailingFor is how long the current failure streak has lasted, and
	// LastEvent how long ago the last watch event came, to the second:
	// "1m6s", "-" for none.
	FailingFor, LastEvent string
	// Class is the last error's class, "-" for none.
	Class string
	// HasError says the key has a last error (see Error).
	HasError bool
	// Requeued says the last reconcile returned Requeue: true without an
	// error (api.Key.Requeued): Error says so instead of nothing.
	Requeued bool

	message  string
	resolved bool
}

// NewKeyRow is k's row at now, the server's time its countdowns and ages
// count from; pod is the replica that serves it ("" for one).
func NewKeyRow(k *api.Key, pod string, now time.Time) KeyRow {
	r := KeyRow{
		Controller: k.Controller, Key: k.Key, Pod: pod,
		State:    string(k.State),
		Failures: strconv.Itoa(k.Failures), Total: strconv.Itoa(k.TotalFailures),
		NextRetry: NextRetryText(*k, now),
		Running:   k.State == api.StateRunning && !k.StartedAt.IsZero(),
		Delay:     "-", Source: dash(k.DelaySource),
		FailingFor: span(k.FirstFailureAt, now), LastEvent: span(k.LastEventAt, now),
		Class: "-",
	}
	if k.Undercounted {
		// A sampled log's: at least this many (see api.Key.Undercounted).
		r.Failures, r.Total = r.Failures+"+", r.Total+"+"
	}
	if r.Running {
		r.RunningFor = now.Sub(k.StartedAt)
	}
	if d := k.Delay.Duration; d > 0 {
		r.Delay = text.FormatDuration(d)
	}
	r.Requeued = k.Requeued && k.LastError == nil
	if e := k.LastError; e != nil {
		r.HasError, r.message, r.resolved = true, e.Message, ErrorResolved(k)
		r.Class = ClassCell(e.Class)
	}
	return r
}

// Error is the last error on one line, cut to n runes (n <= 0: whole),
// after ResolvedMark when a reconcile has succeeded since: the
// error is history. "" for none; RequeuedNoError for a key counted
// only through Requeue: true.
func (r KeyRow) Error(n int) string {
	if !r.HasError {
		if r.Requeued {
			// Counted in FAILS, as an error is: say why there is none.
			return text.OneLine(RequeuedNoError, n)
		}
		return ""
	}
	msg := text.OneLine(r.message, n)
	if r.resolved {
		return ResolvedMark + msg
	}
	return msg
}

// ErrorAtBreaks is Error cut to n cells between the parts of the error
// (text.OneLineAtBreaks), its mark included: the cell a column of n
// cells shows, keeping the error's start and more of its end (its cause).
//
// Under text.MinMiddleCut cells it is the error's start instead
// (text.OneLineStart): a middle cut in 11 cells read "failed…ran…".
func (r KeyRow) ErrorAtBreaks(n int) string {
	if !r.HasError {
		return r.Error(n)
	}
	cut := cutError
	if n < text.MinMiddleCut {
		cut = text.OneLineStart
	}
	if r.resolved {
		return ResolvedMark + cut(r.message, max(n-utf8.RuneCountInString(ResolvedMark), 2))
	}
	return cut(r.message, n)
}

// RequeuedNoError is the error cell of a key counted only through
// Requeue: true: a failure to the rate limiter, with no error to show.
const RequeuedNoError = "Requeue: true (no error)"

// span is how long before now t was, to the second, "-" for none.
func span(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return text.FormatSeconds(now.Sub(t))
}

// dash is s, or "-" for none.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// cutError is a message flattened, escaped and cut where it says least
// (text.CutError), in runes as get's table measures: top's LAST ERROR cuts
// the same way, in cells.
func cutError(s string, n int) string {
	return text.CutError(text.OneLine(s, 0), n, text.Runes)
}
