package why

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The API server's words for an admission webhook that refused a request
// (k8s.io/apiserver v0.37.2): webhook/errors.ToStatusErr's `admission
// webhook "NAME" denied the request[: REASON| without explanation]`, and
// util/webhook.ErrCallingWebhook's `failed calling webhook "NAME": REASON`
// (older servers: `failed calling admission webhook "NAME"`). NAME is the
// webhook's, not an object's: the configuration holding it is found by
// listing them.
var (
	webhookDenied = regexp.MustCompile(`admission webhook "([^"]+)" denied the request`)
	webhookFailed = regexp.MustCompile(`failed calling (?:admission )?webhook "([^"]+)"`)
)

// webhookConfigKinds are the kinds that hold webhooks, mutating first (the
// API server calls them first).
var webhookConfigKinds = []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}

// webhookRefs are the webhooks msg names as refusing: a ref each, by the
// webhook's name.
func webhookRefs(msg, via string) []ref {
	var out []ref
	for _, m := range webhookDenied.FindAllStringSubmatch(msg, -1) {
		out = append(out, ref{Webhook: true, Name: m[1], Via: via, Message: msg})
	}
	for _, m := range webhookFailed.FindAllStringSubmatch(msg, -1) {
		out = append(out, ref{Webhook: true, Name: m[1], Via: via, Message: msg})
	}
	return out
}

// followWebhook finds the webhook configuration that holds the webhook r
// names, and judges it by that webhook's state: its service missing, the
// call that failed or the denial, and its failurePolicy. It is the user's
// to change (Refusing), unless its service is back: then it is Current,
// changed when the service was created, for the retry sentence.
func (w *walker) followWebhook(ctx context.Context, r ref, depth int) *Node {
	for _, kind := range webhookConfigKinds {
		k, ok := w.g.resolve("admissionregistration.k8s.io", kind, true, "")
		if !ok {
			continue
		}
		items, _, err := w.g.list(ctx, k, "")
		if err != nil {
			w.addCut("%s could not be listed to find webhook %q: %v", strings.ToLower(kind)+"s", r.Name, shortErr(err))
			continue
		}
		for i := range items {
			cfg := &items[i]
			hook, ok := webhookNamed(cfg, r.Name)
			if !ok {
				continue
			}
			if w.seen[nodeID(cfg)] != nil {
				return nil // named again by a copy of the same message
			}
			w.read++
			n := w.node(ctx, cfg, k.Resource, r.Via, depth+1)
			n.Named, n.Changed = true, changedAt(cfg)
			w.judgeWebhook(ctx, n, r, hook)
			return n
		}
	}
	w.addCut("webhook %q (%s) is in no webhook configuration now: removed since the failure, or not readable", r.Name, r.Via)
	return nil
}

// webhookNamed is the entry of cfg's webhooks named name.
func webhookNamed(cfg *unstructured.Unstructured, name string) (map[string]any, bool) {
	hooks, _, _ := unstructured.NestedSlice(cfg.Object, "webhooks")
	for _, h := range hooks {
		if m, ok := h.(map[string]any); ok && m["name"] == name {
			return m, true
		}
	}
	return nil, false
}

// judgeWebhook sets n's status and line from the webhook's entry and the
// message that named it.
func (w *walker) judgeWebhook(ctx context.Context, n *Node, r ref, hook map[string]any) {
	policy, _, _ := unstructured.NestedString(hook, "failurePolicy")
	if policy == "" {
		policy = "Fail" // admissionregistration/v1's default
	}
	svcNS, _, _ := unstructured.NestedString(hook, "clientConfig", "service", "namespace")
	svcName, _, _ := unstructured.NestedString(hook, "clientConfig", "service", "name")
	url, _, _ := unstructured.NestedString(hook, "clientConfig", "url")
	calls := "calls " + url
	n.Status = Refusing
	switch denied := webhookDenied.MatchString(r.Message); {
	case denied:
		n.Line = fmt.Sprintf("webhook %q denied the request: change what it objects to, or its policy", r.Name)
		return
	case svcName != "":
		calls = fmt.Sprintf("calls service %s/%s", svcNS, svcName)
		svc, known := w.service(ctx, svcNS, svcName)
		switch {
		case known && svc == nil:
			n.Line = fmt.Sprintf("webhook %q %s, which does not exist; failurePolicy %s: what it matches is refused until the service is back or the webhook is removed", r.Name, calls, policy)
			return
		case svc != nil && strings.Contains(r.Message, fmt.Sprintf("service %q not found", svcName)):
			// The service the failure missed is back: the user's fix, made
			// when it was created (for the retry sentence).
			if c := changedAt(svc); n.Changed == nil || c.Time.After(n.Changed.Time) {
				o := objectOf(svc, "services")
				n.Changed, n.ChangedObject = c, &o
			}
			n.Status = Current
			n.Line = fmt.Sprintf("webhook %q %s, which exists now (the failure found it missing); failurePolicy %s", r.Name, calls, policy)
			return
		}
	}
	n.Line = fmt.Sprintf("webhook %q %s, which could not be called (%s); failurePolicy %s: a call that fails refuses what it matches", r.Name, calls, webhookReason(r), policy)
}

// service reads the Service a webhook calls: nil, true when it does not
// exist; nil, false when it could not be read.
func (w *walker) service(ctx context.Context, ns, name string) (*unstructured.Unstructured, bool) {
	k, ok := w.g.resolve("", "Service", true, "")
	if !ok {
		return nil, false
	}
	u, err := w.g.get(ctx, k, ns, name)
	if err != nil {
		return nil, false
	}
	w.read++
	return u, true
}

// webhookReason is what follows `failed calling webhook "NAME": ` in the
// message, its tail kept (the cause is at the end).
func webhookReason(r ref) string {
	m := webhookFailed.FindStringIndex(r.Message)
	if m == nil {
		return "the call failed"
	}
	reason := strings.TrimLeft(r.Message[m[1]:], ":; ")
	if rs := []rune(reason); len(rs) > 120 {
		reason = "…" + string(rs[len(rs)-119:])
	}
	return reason
}
