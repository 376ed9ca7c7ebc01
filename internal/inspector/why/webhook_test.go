package why

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestWebhookBlocker: a webhook a failure names ("failed calling webhook
// "NAME"", "admission webhook "NAME" denied the request") is resolved to the
// configuration that holds a webhook of that name, shown as the blocker
// with the webhook's state. Expected lines written from the fixtures
// (testdata/README.md), not by running the code.
func TestWebhookBlocker(t *testing.T) {
	const kserveRS, deniedRS = "chain/replicaset-webhook-kserve.yaml", "chain/replicaset-webhook-denied.yaml"
	const mutating = "mutatingwebhookconfiguration.admissionregistration.k8s.io/inferenceservice.serving.kubeflow.org"
	for _, tc := range []struct {
		name, root string
		files      []string
		// blocker is the node named by the message; status its status,
		// line its line.
		blocker, status, line string
		cut                   string
	}{
		{name: "service missing", root: kserveRS,
			files:   []string{"chain/mutatingwebhookconfiguration-kserve.yaml", "kind:chain/service-kfserving-webhook-server.yaml"},
			blocker: mutating, status: Refusing,
			line: `webhook "inferenceservice.kfserving-webhook-server.pod-mutator" calls service kubeflow/kfserving-webhook-server-service, which does not exist; ` +
				"failurePolicy Fail: what it matches is refused until the service is back or the webhook is removed"},
		{name: "service back", root: kserveRS,
			files:   []string{"chain/mutatingwebhookconfiguration-kserve.yaml", "chain/service-kfserving-webhook-server.yaml"},
			blocker: mutating, status: Current,
			line: `webhook "inferenceservice.kfserving-webhook-server.pod-mutator" calls service kubeflow/kfserving-webhook-server-service, which exists now (the failure found it missing); failurePolicy Fail`},
		{name: "denied", root: deniedRS,
			files:   []string{"chain/validatingwebhookconfiguration-image-signature.yaml", "kind:chain/mutatingwebhookconfiguration-kserve.yaml"},
			blocker: "validatingwebhookconfiguration.admissionregistration.k8s.io/image-signature-webhook", status: Refusing,
			line: `webhook "image-signature.hightowerlabs.com" denied the request: change what it objects to, or its policy`},
		{name: "in no configuration", root: deniedRS,
			files: []string{"kind:chain/validatingwebhookconfiguration-image-signature.yaml"},
			cut:   `webhook "image-signature.hightowerlabs.com" (ReplicaFailure=True (FailedCreate) names it) is in no webhook configuration now`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graphOf(t, append([]string{tc.root}, tc.files...)...)
			u := load(t, tc.root)
			a := &Asker{Graph: g, Now: func() time.Time { return time.Date(2019, 12, 2, 10, 30, 0, 0, time.UTC) }}
			ans := a.Ask(context.Background(), u, "replicasets")
			var got *Node
			for _, n := range ans.Chain.Root.Below {
				if n.Named {
					if got != nil {
						t.Errorf("a second node named by the message: %s (%s)", n.Object.Ref(), n.Line)
					}
					got = n
				}
			}
			if tc.blocker == "" {
				if got != nil || !strings.Contains(strings.Join(ans.Chain.Cut, "\n"), tc.cut) {
					t.Errorf("node %+v, cut %q; want none, and the cut %q", got, ans.Chain.Cut, tc.cut)
				}
				return
			}
			if got == nil {
				t.Fatalf("no node named by the message; want %s\n%s", tc.blocker, treeText(ans.Chain.Root, ""))
			}
			if got.Object.Ref() != tc.blocker || got.Status != tc.status || got.Line != tc.line {
				t.Errorf("node %s %s\n%s\nwant %s %s\n%s", got.Object.Ref(), got.Status, got.Line, tc.blocker, tc.status, tc.line)
			}
			if tc.name == "service back" {
				// The user's fix is the Service: the retry sentence names it, not the configuration.
				if c := got.ChangedObject; c == nil || c.Ref() != "service/kfserving-webhook-server-service" {
					t.Errorf("changed object %+v; want the webhook's service", c)
				}
			}
			if tc.status == Refusing {
				if b := ans.Chain.Blockers(); len(b) != 1 || b[0] != got {
					t.Errorf("blockers %v; want the configuration alone", blockerRefs(ans.Chain))
				}
				if next := strings.Join(ans.Next, "\n"); !strings.Contains(next, "Change "+tc.blocker+", not the object: "+tc.line) {
					t.Errorf("next %q; want the configuration to change", next)
				}
			}
		})
	}
}
