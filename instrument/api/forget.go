package api

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ForgetRequest is the v1/forget body. Exactly one of Keys or Filter selects
// what to forget.
type ForgetRequest struct {
	Controller string   `json:"controller"`
	Keys       []string `json:"keys,omitempty"`
	// Handles names keys by their Key.Handle (keys that are not valid
	// UTF-8); it adds to Keys.
	Handles []string `json:"handles,omitempty"`
	Filter  *Filter  `json:"filter,omitempty"`
	// Requeue makes the keys ready now (Forget + Add); it needs the queue decorator.
	Requeue bool `json:"requeue,omitempty"`
	// Spread releases a bulk requeue evenly over this window instead of at once.
	Spread metav1.Duration `json:"spread,omitzero"`
	// DryRun reports what would be forgotten and changes nothing.
	DryRun bool `json:"dryRun,omitempty"`
	// Reason is why the keys are forgotten, e.g. "dependency restored"; it is
	// recorded with the reset, logged, and put in the object's Event. At most
	// MaxReasonBytes.
	Reason string `json:"reason,omitempty"`
	// User is who the client says is asking, e.g. the kubeconfig's user. When
	// the endpoint knows the authenticated user (mounted behind the metrics
	// server's filter, see instrument/authfilter) it records that and ignores
	// this claim; otherwise it records the claim followed by UnverifiedSuffix.
	// At most MaxUserBytes.
	User string `json:"user,omitempty"`
}

// Bounds of ForgetRequest's free text.
const (
	MaxReasonBytes = 512
	MaxUserBytes   = 256
)

// UnverifiedSuffix ends a recorded user (Reset.User, Attempt.By) that is the
// client's own claim, not an authenticated identity: "alice (unverified)".
const UnverifiedSuffix = " (unverified)"

// Filter selects keys as v1/keys does: Q is a substring of the key or its last
// error; Error, in Q's syntax, must match the last error alone (an error
// group's pattern, beside the user's own Q); States keeps only keys in one
// of these states. An empty filter selects all.
type Filter struct {
	Q      string  `json:"q,omitempty"`
	Error  string  `json:"error,omitempty"`
	States []State `json:"state,omitempty"`
}

// ForgetResponse reports what a forget did.
type ForgetResponse struct {
	ServerTime time.Time `json:"serverTime"`
	Controller string    `json:"controller"`
	// Count is how many keys were (or, with DryRun, would be) forgotten.
	Count int `json:"count"`
	// Permanent is how many of them last failed on a permanent error
	// (ClassPermanent; no reconcile has ended since without it): a forget
	// or a retry runs them into the same error unless their object changed.
	Permanent int  `json:"permanent,omitempty"`
	DryRun    bool `json:"dryRun,omitempty"`
	Requeued  bool `json:"requeued"`
	// PendingRetryKept is true when counters were reset but the keys were not
	// requeued (no requeue asked, or the queue is not instrumented): a pending
	// retry keeps its time.
	PendingRetryKept bool `json:"pendingRetryKept,omitempty"`
	// Keys lists the forgotten keys with what was reset, up to MaxForgetReport.
	Keys      []ForgottenKey `json:"keys"`
	Truncated bool           `json:"truncated,omitempty"`
	Message   string         `json:"message"`
}

// ForgottenKey is one key a forget reset.
type ForgottenKey struct {
	Key      string `json:"key"`
	State    State  `json:"state"`
	Failures int    `json:"failures"`
	// ReleaseIn is the key's slot in a spread retry.
	ReleaseIn metav1.Duration `json:"releaseIn,omitzero"`
	// EarlierRetryIn, when set, is a retry already pending that runs the
	// key before its slot: both queues keep the sooner of two ready times
	// for one key (client-go's delaying queue, controller-runtime's
	// priority queue), so that retry runs it, at EarlierRetryIn.
	EarlierRetryIn metav1.Duration `json:"earlierRetryIn,omitzero"`
}
