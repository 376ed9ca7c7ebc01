package why

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// The error shapes of apimachinery and the admission plugins that name the
// object a controller's attempt was refused for: what the user must change.
var (
	// quota admission: "exceeded quota: NAME, requested: …".
	exceededQuota = regexp.MustCompile(`(?i)exceeded quota: ([a-z0-9]([-a-z0-9.]*[a-z0-9])?)`)
	// apierrors.NewNotFound: `RESOURCE[.GROUP] "NAME" not found`, the
	// resource singular or plural, maybe with a subresource
	// (`serviceaccount "api-sa" not found`, `storageclass.storage.k8s.io
	// "fast" not found`, the HPA's `deployments/scale.apps "web" not found`).
	notFoundShape = regexp.MustCompile(`\b([a-z][a-z0-9]*)(/[a-z]+)?((\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*) "([^"/]+)" not found`)
)

// Refusing is a node's status when the object exists and a failure's
// message names it as what refused the attempt, and it still would (a
// quota still full): the user's to change.
const Refusing = "Refusing"

// messageRefs are the objects v's failures name (objstatus.Failure: the
// failure-type conditions and recurring failure events).
func messageRefs(u *unstructured.Unstructured, v Verdict) []ref {
	var out []ref
	seen := map[string]bool{}
	add := func(r ref) {
		k := fmt.Sprint(r.Webhook) + "/" + r.Resource + "/" + r.Kind + "/" + r.Name
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	quotaAt := map[string]time.Time{}
	for _, f := range v.Failures {
		via := f.What + " names it"
		for _, m := range exceededQuota.FindAllStringSubmatch(f.Message, -1) {
			// Judged by the newest refusal's numbers: a ReplicaSet's
			// ReplicaFailure keeps its first failure's message while its
			// FailedCreate events say what the quota refuses now.
			if i := slices.IndexFunc(out, func(r ref) bool { return r.Kind == "ResourceQuota" && r.Name == m[1] }); i >= 0 {
				if f.Last.After(quotaAt[m[1]]) {
					out[i].Message, quotaAt[m[1]] = f.Message, f.Last
				}
				continue
			}
			quotaAt[m[1]] = f.Last
			add(ref{Kind: "ResourceQuota", GroupKnown: true, Namespace: u.GetNamespace(), Name: m[1], Via: via, Message: f.Message})
		}
		if discoveryFailed(f.Message) {
			for _, m := range staleGV.FindAllStringSubmatch(f.Message, -1) {
				add(ref{Group: "apiregistration.k8s.io", GroupKnown: true, Kind: "APIService", Name: m[5] + "." + m[1], Via: via, Message: f.Message})
			}
		}
		if hooks := webhookRefs(f.Message, via); len(hooks) > 0 {
			// What follows is the webhook's call or its words: a `service
			// "X" not found` there is the webhook's service, in its
			// namespace, which followWebhook reads from its configuration.
			for _, r := range hooks {
				add(r)
			}
			continue
		}
		for _, m := range notFoundShape.FindAllStringSubmatch(f.Message, -1) {
			add(ref{Resource: m[1], Group: strings.TrimPrefix(m[3], "."), GroupKnown: m[3] != "", Namespace: u.GetNamespace(), Name: m[6], Via: via, Message: f.Message})
		}
	}
	return out
}

// refused judges an object a failure's message names: a quota is Refusing
// while it still has no room for what was requested.
func refused(n *Node, u *unstructured.Unstructured, r ref) {
	if !r.fromMessage() || u.GetKind() != "ResourceQuota" {
		return
	}
	full, line := objstatus.QuotaRoom(u, r.Message)
	n.Line = line
	if full {
		n.Status = Refusing
	}
}

// changedAt is when u was last written by other than its controllers: its
// spec's newest entry, else its newest main-resource entry, else its
// creation (a ServiceAccount has no spec).
func changedAt(u *unstructured.Unstructured) *Change {
	o := ownershipOf(u.GetManagedFields())
	if o.SpecChange != nil && !o.SpecChange.Time.IsZero() {
		return o.SpecChange
	}
	var c *Change
	for _, e := range u.GetManagedFields() {
		if e.Subresource == "" && e.Time != nil && (c == nil || e.Time.After(c.Time)) {
			c = &Change{Manager: e.Manager, Time: e.Time.Time}
		}
	}
	if c == nil {
		c = &Change{Time: u.GetCreationTimestamp().Time}
	}
	return c
}

func (r ref) fromMessage() bool { return r.Message != "" }

// String names r for a cut: "serviceaccount api-sa".
func (r ref) String() string {
	k := r.Kind
	if k == "" {
		k = r.Resource
	}
	return fmt.Sprintf("%s %s", strings.ToLower(k), r.Name)
}

// discoveryFailed says a message is client-go's discovery failing for a
// group/version: the APIService serving it is what to look at.
func discoveryFailed(msg string) bool {
	for _, s := range []string{"unable to retrieve the complete list of server APIs", "failed to get API group resources", "stale GroupVersion discovery"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
