package api

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Key is one tracked key as v1/keys and v1/key return it. Absent fields are
// omitted; times are the server's clock, to the microsecond (the instrument
// keeps them so, for its history's sake; serverTime keeps its nanoseconds).
type Key struct {
	Controller string `json:"controller"`
	Key        string `json:"key"`
	// Handle is set only when Key is not valid UTF-8, which JSON cannot carry
	// (the bad bytes arrive as U+FFFD): the key's bytes in unpadded base64url
	// (RFC 4648 §5). Give it back as v1/key's handle parameter, or in a
	// forget's handles, to name this exact key.
	Handle         string          `json:"handle,omitempty"`
	State          State           `json:"state"`
	Failures       int             `json:"failures"`
	TotalFailures  int             `json:"totalFailures,omitempty"`
	Reconciles     int             `json:"reconciles,omitempty"`
	NextRetryAt    time.Time       `json:"nextRetryAt,omitzero"`
	Delay          metav1.Duration `json:"delay,omitzero"`
	DelaySource    string          `json:"delaySource,omitempty"`
	LastError      *ErrorRecord    `json:"lastError,omitempty"`
	SameErrorCount int             `json:"sameErrorCount,omitempty"`
	// FirstFailureAt is when the key's run of failed reconciles began: a
	// success or a RequeueAfter ends the run; a forget restarts Failures,
	// the limiter's count, not the run.
	FirstFailureAt  time.Time       `json:"firstFailureAt,omitzero"`
	LastSuccessAt   time.Time       `json:"lastSuccessAt,omitzero"`
	LastReconcileAt time.Time       `json:"lastReconcileAt,omitzero"`
	LastDuration    metav1.Duration `json:"lastDuration,omitzero"`
	LastEventAt     time.Time       `json:"lastEventAt,omitzero"`
	QueuedAt        time.Time       `json:"queuedAt,omitzero"`
	StartedAt       time.Time       `json:"startedAt,omitzero"`
	// EarlierRetry says NextRetryAt comes from a retry scheduled before the
	// last Delay and still pending: the queue keeps the sooner of two ready
	// times for one key, so the key runs then, not Delay after its failure.
	EarlierRetry bool `json:"earlierRetry,omitempty"`
	// Requeued says the key's last reconcile returned Requeue: true without
	// an error: the rate limiter counts it in Failures as it counts an
	// error, so a key may fail with no LastError. Set only by a process
	// whose reconciler is instrumented.
	Requeued bool `json:"requeued,omitempty"`
	// LastReset is the last time the failure count went back to 0 without a
	// success: a user's forget, or the controller giving up on the key (or,
	// Reset.Kept, giving up on it without forgetting it: the count stays).
	LastReset *Reset `json:"lastReset,omitempty"`
	// Source says where the numbers come from: empty for the instrument's own
	// records, SourceLogs for a key reconstructed from a controller's logs.
	Source string `json:"source,omitempty"`
	// Estimated marks times and delays that were computed, not recorded (log mode).
	Estimated bool `json:"estimated,omitempty"`
	// Undercounted is log mode's: the key failed after its log showed the
	// signature of zap's sampler (ListSource.SampledAt), which drops
	// lines, so Failures and TotalFailures are lower bounds and its
	// retries come later than estimated.
	Undercounted bool `json:"undercounted,omitempty"`
	// LogLine is, for a key read from a log by the generic reader of the
	// work-queue idiom (no dialect names its controller's words), the line
	// its last failure was read from, so that a user sees what was read.
	LogLine string `json:"logLine,omitempty"`
	// LogEvidence is, with LogLine, what decided that the line is a
	// failed attempt of the key: its words ("will retry"), a stated
	// count, or the log's structure (its template's gaps growing as a
	// rate limiter's delays); without LogLine, for a named dialect's
	// failure line that names no key, the line of its attempt that named
	// it.
	LogEvidence string `json:"logEvidence,omitempty"`
	// ControllerWords are, for a key read from a log whose lines name no
	// controller, the words of its failure line that Controller was read
	// from: "handler need-a-cert", the handler a wrangler controller's
	// error names ("error syncing 'KEY': handler need-a-cert: ERR").
	ControllerWords string `json:"controllerWords,omitempty"`
	// DelayWords is, for DelaySource SourceStated, the log's own words that
	// stated the delay ("Retrying in 2m40s"); for SourceWaited, the field
	// that stated the delay the attempt waited ("delayedViaRateLimit=1m21.92s").
	DelayWords string    `json:"delayWords,omitempty"`
	History    []Attempt `json:"history,omitempty"`
}

// Reset is a reset of a key's failure count that was not a success.
type Reset struct {
	At time.Time `json:"at"`
	// By is ResetForget (kubectl backoff forget, or a POST to v1/forget) or
	// ResetGaveUp (the controller called Forget without a success and did not
	// requeue: client-go's handleErr after its last retry).
	By string `json:"by"`
	// Failures is the length of the failure streak the reset ended.
	Failures int `json:"failures"`
	// Kept says the count did not go back to 0: the controller gave up on
	// the key without calling Forget (sig-storage-lib-external-provisioner's
	// "Done but do not Forget"), so its queue keeps the count, and a failure
	// after the next change to the object continues from it. Set only with
	// ResetGaveUp, read off a log that states the count.
	Kept bool `json:"kept,omitempty"`
	// User is who asked for a forget, when known: the authenticated user, or
	// the client's claim followed by UnverifiedSuffix. Reason is what they gave.
	User   string `json:"user,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ErrorRecord is an error message and when it was last seen.
type ErrorRecord struct {
	Message string    `json:"message"`
	At      time.Time `json:"at,omitzero"`
	// Class is ClassTransient, ClassPermanent or ClassUnknown, decided from the
	// error's chain when it was recorded.
	Class string `json:"class,omitempty"`
}

// Attempt is one entry of a key's history, oldest first. Its Delay and
// Duration are exact below a second, to the microsecond up to 17.9 minutes
// (every delay of client-go's exponential limiter is exact), coarser beyond.
type Attempt struct {
	At       time.Time       `json:"at,omitzero"`
	Outcome  string          `json:"outcome"`
	Delay    metav1.Duration `json:"delay,omitzero"`
	Error    string          `json:"error,omitempty"`
	Duration metav1.Duration `json:"duration,omitzero"`
	// Trigger is why this attempt ran: TriggerFirst, TriggerRetry,
	// TriggerEvent, TriggerRequeueAfter or TriggerForget.
	Trigger string `json:"trigger,omitempty"`
	// Preempted is set on an event-triggered attempt that ran before the
	// retry its backoff had scheduled.
	Preempted bool `json:"preempted,omitempty"`
	// Class classifies Error (see ErrorRecord.Class).
	Class string `json:"class,omitempty"`
	// By and Reason say who forgot the key and why, on a TriggerForget attempt
	// or a forgotten outcome.
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// KeyList is the v1/keys response: one page of the filtered, sorted keys.
type KeyList struct {
	// ServerTime is when the page was computed, on the server's clock: the
	// time its states and countdowns are true at.
	ServerTime time.Time `json:"serverTime"`
	// Age is how old the page was when it was sent: identical requests
	// arriving together share one computation, and while the server is busy
	// a page answers identical requests for up to 250ms; so Age is 0s for a
	// fresh page and a few hundred milliseconds at most.
	Age metav1.Duration `json:"age"`
	// Total is how many keys the selected controllers track.
	Total int `json:"total"`
	// Matched is how many of them pass the filter; Items is a page of those.
	// Each item is one reading of its key, and passes the filter as shown: a
	// key that moved on between the filter and the page's read (a backoff
	// key that started running) is left out, and not counted in Matched.
	Matched int   `json:"matched"`
	Items   []Key `json:"items"`
	// Continue is set when matched keys follow this page: pass it back as
	// the continue parameter (with the same controller, q, state and sort)
	// for the next page. Offset reaches only the first and the last
	// MaxWindow keys; continue goes as deep as the list does.
	Continue string `json:"continue,omitempty"`
}

// KeyDetail is the v1/key response.
type KeyDetail struct {
	ServerTime time.Time `json:"serverTime"`
	Key
}

// HistorySize is how many attempts a key's History holds at most, oldest
// first: a full history may have dropped older ones.
const HistorySize = 16
