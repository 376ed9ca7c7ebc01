package instrument

import (
	"context"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const (
	// EventReasonBackoffReset is the reason of the Event a forget records on
	// the object behind a key; its action is EventActionForget.
	EventReasonBackoffReset = "BackoffReset"
	// EventActionForget is the action of that Event.
	EventActionForget = "Forget"
	// maxForgetEvents bounds the Events one forget records: a bulk forget of
	// thousands of keys is one log line, not thousands of API writes.
	maxForgetEvents = 100
	// eventLookupBudget bounds the time one forget spends reading the UIDs
	// of its objects; the Events after it go out without one.
	eventLookupBudget = 5 * time.Second
)

// announceForget records an Event on the object behind each forgotten key,
// so `kubectl describe` shows who reset its backoff and why. It runs after
// the forget, outside every lock, on the handler's goroutine (the recorder
// sends in the background); a probe with no recorder or no object kind
// records none.
func (p *TypedProbe[T]) announceForget(targets []target[T], user, reason string) {
	if p.events == nil || p.kind == nil {
		return
	}
	note := forgetEventMessage(user, reason)
	ctx, cancel := context.WithTimeout(context.Background(), eventLookupBudget)
	defer cancel()
	for _, t := range targets[:min(len(targets), maxForgetEvents)] {
		p.events.Eventf(p.objectOf(ctx, t.key), nil, corev1.EventTypeNormal, EventReasonBackoffReset, EventActionForget, "%s", note)
	}
}

// objectOf names the object behind key ("namespace/name", or "name" for a
// cluster-scoped object) for the recorder: kind and name, and its UID when
// the probe can read it — kubectl describe lists the Events of an object
// by UID.
func (p *TypedProbe[T]) objectOf(ctx context.Context, key string) *metav1.PartialObjectMetadata {
	o := &metav1.PartialObjectMetadata{}
	o.APIVersion = metav1.GroupVersion{Group: p.kind.Group, Version: p.kind.Version}.String()
	o.Kind = p.kind.Kind
	if ns, name, ok := strings.Cut(key, "/"); ok {
		o.Namespace, o.Name = ns, name
	} else {
		o.Name = key
	}
	if p.objects != nil && ctx.Err() == nil {
		got := o.DeepCopy()
		if err := p.objects.Get(ctx, client.ObjectKeyFromObject(o), got); err == nil {
			o.UID = got.UID
		}
	}
	return o
}

// forgetEventMessage is the Event's text: "backoff reset by alice: dependency
// restored", leaving out what the request did not say.
func forgetEventMessage(user, reason string) string {
	msg := "backoff reset"
	if user != "" {
		msg += " by " + user
	}
	if reason != "" {
		msg += ": " + reason
	}
	return msg
}

// recordedUser is who a forget is recorded as: the authenticated user when
// the request carries one, else the client's claim marked unverified.
func recordedUser(authenticated, claimed string) string {
	switch {
	case authenticated != "":
		return authenticated
	case claimed != "":
		return claimed + api.UnverifiedSuffix
	}
	return ""
}
