//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// testForgetEvent forgets a failing naive key with a reason: the reset
// records who asked (the kubeconfig's user, unverified: the loopback
// listener authenticates no one) and why, and the demo's probe writes an
// Event on the real ConfigMap that kubectl describe shows.
func testForgetEvent(t *testing.T, kc *kubectl, admin string) {
	const name, reason = "naive-00005", "dependency restored"
	key := ns + "/" + name
	raw, err := clientcmd.LoadFromFile(admin)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := raw.Contexts[raw.CurrentContext]
	if !ok || c.AuthInfo == "" {
		t.Fatalf("kubeconfig %s: no user in its current context %q", admin, raw.CurrentContext)
	}
	wantUser := c.AuthInfo + api.UnverifiedSuffix

	eventually(t, time.Minute, key+" fails", func(context.Context) error {
		var list inspector.KeyList
		if err := kc.jsonOf(t, &list, admin, cmd("get", "--controller", "naive", key, "-o", "json")...); err != nil {
			return err
		}
		if k := list.Items[0]; k.Failures < 1 {
			return fmt.Errorf("%s has %d failures", key, k.Failures)
		}
		return nil
	})
	var resp api.ForgetResponse
	if err := kc.jsonOf(t, &resp, admin, cmd("forget", "--controller", "naive", key, "--reason", reason, "-y", "-o", "json")...); err != nil {
		t.Fatal(err)
	}
	if resp.Count != 1 {
		t.Fatalf("forget: count %d, want 1", resp.Count)
	}

	var list inspector.KeyList
	if err := kc.jsonOf(t, &list, admin, cmd("get", "--controller", "naive", key, "-o", "json")...); err != nil {
		t.Fatal(err)
	}
	if r := list.Items[0].LastReset; r == nil || r.By != api.ResetForget || r.User != wantUser || r.Reason != reason {
		t.Errorf("lastReset = %+v, want by %s, user %q, reason %q", r, api.ResetForget, wantUser, reason)
	}

	// kubectl describe lists an object's Events by its UID: this passes only
	// if the Event is attached to this very ConfigMap.
	want := "backoff reset by " + wantUser + ": " + reason
	eventually(t, 30*time.Second, "kubectl describe shows the forget", func(context.Context) error {
		out, errOut, err := kc.run(t, admin, "describe", "configmap", name, "-n", ns)
		if err != nil {
			return fmt.Errorf("kubectl describe configmap %s: %v: %s", name, err, errOut)
		}
		if !strings.Contains(out, "BackoffReset") || !strings.Contains(out, want) {
			return fmt.Errorf("describe lacks the BackoffReset event %q:\n%s", want, out)
		}
		return nil
	})
}
