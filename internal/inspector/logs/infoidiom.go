package logs

import (
	"regexp"
	"strings"
)

// The idiom said at info level. client-go's work-queue example logged its
// handleErr at info until v0.26 (`klog.Infof("Error syncing pod %v: %v",
// key, err)`, then AddRateLimited), and controllers written from it kept
// it: the machine-config-operator's render controller (`Error syncing
// machineconfigpool NAME: ERR` at V(2)), kubermatic's cluster controller
// (`glog.V(0).Infof("Error syncing %v: %v", key, err)`), the
// external-snapshotter's workers (`Failed to sync content "NAME", will
// retry again: ERR`, V(4)). Their level says nothing; their shape does: the
// message opens with the work queue's failure, the failure word first (an
// error, failure or inability to sync, reconcile, handle or process), and
// either is the idiom's "Error syncing" or says it will retry, then names the key in the message and states the error after it.
// A line that only mentions a failure further in, names its key in a field
// alone, or says it is skipping or dropping the key, is not read so.

// opensIdiom says whether msg opens (at opens, after a "NAME: ") with the
// work queue's failure phrase fail, and that phrase is "Error syncing" or
// the line says it will retry.
func opensIdiom(msg string, opens int, fail []int, idiom, retry bool) bool {
	if fail == nil || fail[0] > opens || !coreVerb.MatchString(msg[fail[0]:fail[1]]) {
		return false
	}
	// The failure word first, as HandleError's and handleErr's format
	// strings write it ("Error syncing", "Failed to sync"): a message that
	// opens with the verb ("sync of widget x failed, retry #3") is a
	// project's own words, for a dialect file.
	head := strings.ToLower(msg[fail[0]:fail[1]])
	if !strings.HasPrefix(head, "error") && !strings.HasPrefix(head, "fail") && !strings.HasPrefix(head, "unable") && !strings.HasPrefix(head, "could not") {
		return false
	}
	return idiom || retry
}

// infoIdiomEvidence is what decided a line read by its opening at info
// level.
func infoIdiomEvidence(r Record) string {
	return "its words at info level: the message opens with the work queue's failure, " + r.Message +
		", names its key and states the error after it (client-go's handleErr as its work-queue example logged it, before AddRateLimited)"
}

// kindThenBareName: right after the failure phrase, a kind in one word
// (lower-case, as a resource's name: "machineconfigpool"; or CamelCase)
// and a bare name ending at the message's ": ".
var kindThenBareName = regexp.MustCompile(`^ ([a-z]{3,}|[A-Z][a-zA-Z]{2,}) ([a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?): `)

// echoedNameKey is the cluster-scoped key a message names by a kind and a
// bare name of no mark (no dash, dot or digit: "Error syncing
// machineconfigpool nodeobservability: ERR") when its error names the
// same object again in quotes, as the API server's errors do (`Operation
// cannot be fulfilled on machineconfigpools… "nodeobservability"`, `… "x"
// not found`): an ordinary word before the colon ("Error syncing pod
// sandbox: …") is not echoed so. end is where the failure phrase ends;
// at is where the name starts.
func echoedNameKey(msg string, end int) (name string, at int, ok bool) {
	m := kindThenBareName.FindStringSubmatchIndex(msg[end:])
	if m == nil {
		return "", 0, false
	}
	name = msg[end+m[4] : end+m[5]]
	if !strings.Contains(msg[end+m[1]:], `"`+name+`"`) {
		return "", 0, false
	}
	return name, end + m[4], true
}
