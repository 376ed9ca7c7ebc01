package logs

import (
	"regexp"
	"strings"
)

// gerundObjectField says the message opens "Error VERBing NOUN" and the
// line's one key field is named NOUN: kube-scheduler's
// handleSchedulingFailure, HandleErrorWithContext(ctx, err, "Error
// scheduling pod; retrying", "pod", klog.KObj(pod)) before the pod goes
// back to its queue (batch20/2030), logs the object the verb acts on in
// a field of that object's name. With the retry words after it (the
// caller checks) it is the errorGerund shape whose key sits in key=: the
// field, named by the message itself, is the key, not a name the line
// merely carries (a node="x" beside a pod's failure is no key, and two
// key fields are none).
func (f *fields) gerundObjectField(msg string) bool {
	if f.keyFields != 1 || f.keyFieldName == "" {
		return false
	}
	m := gerundObject.FindStringSubmatch(msg)
	return m != nil && strings.EqualFold(m[1], f.keyFieldName)
}

// gerundObject: "Error VERBing NOUN", the noun kept.
var gerundObject = regexp.MustCompile(`^(?i:error) [a-z]+ing ([A-Za-z]+)\b`)

// unableObjectField is the failure phrase of a message that opens "Unable
// to VERB NOUN" when the line's one key field is named NOUN and it carries
// an error field: kube-scheduler's FitError branch of the same
// handleSchedulingFailure logs "Unable to schedule pod; no fit; waiting"
// pod="ns/x" err="0/3 nodes are available: …" at info level (V(2)) and
// puts the pod back in its queue, no retry word said (batch20/2011). The
// message names the kind of its key's field, the line states the error:
// the attempt on that object failed — when the message ends saying the
// object now waits ("; waiting": back in its queue). Without those words
// it is no failure: controller-runtime reconcilers log "unable to fetch
// sleepInfo" {"sleepinfo": "ns/x", "error": …} and return nil on NotFound
// (batch9/915, a negative). Nil else.
func (f *fields) unableObjectField(msg string, opens int) []int {
	if f.keyFields != 1 || f.keyFieldName == "" {
		return nil
	}
	m := unableObject.FindStringSubmatchIndex(msg[opens:])
	if m == nil || !strings.EqualFold(msg[opens+m[2]:opens+m[3]], f.keyFieldName) || !waitsAfter.MatchString(msg[opens+m[1]:]) {
		return nil
	}
	return []int{opens + m[0], opens + m[1]}
}

// waitsAfter: the message's last clause is "waiting" (after a ";").
var waitsAfter = regexp.MustCompile(`;\s*waiting\.?$`)

// unableObject: "Unable to VERB NOUN", the noun kept.
var unableObject = regexp.MustCompile(`^(?i:unable) to [a-z]+ ([A-Za-z]+)\b`)

// gerundRetry is "Error VERBing …, retrying" with the key in key= (the
// EndpointSlice mirroring controller's "Error mirroring EndpointSlices for
// Endpoints, retrying") or in a field the message's noun names: any verb,
// as the retry words (at retryAt) and the key field say the rest. It
// returns the failure phrase's span, or nil.
func (f *fields) gerundRetry(msg string, opens, retryAt int) []int {
	if f.alt == "" && !f.gerundObjectField(msg[opens:]) {
		return nil
	}
	if m := errorGerund.FindStringIndex(msg[opens:]); m != nil && opens+m[1] <= retryAt {
		return []int{opens + m[0], opens + m[1]}
	}
	return nil
}
