package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestForgetSpreadSaysWhichRetryRuns: a key whose pending retry comes
// before its spread slot is retried by that retry (the queue keeps the
// sooner ready time, api.ForgottenKey.EarlierRetryIn): the line says when
// it really runs, not the slot. A key without one says its slot.
func TestForgetSpreadSaysWhichRetryRuns(t *testing.T) {
	var out bytes.Buffer
	o := &ForgetOptions{IOStreams: genericiooptions.IOStreams{Out: &out}}
	o.printForgotten([]*api.ForgetResponse{{Controller: "alpha", Count: 2, Requeued: true, Message: "forgot the backoff of 2 keys of alpha",
		Keys: []api.ForgottenKey{
			{Key: "default/a", State: api.StateBackoff, Failures: 4, ReleaseIn: metav1.Duration{Duration: 10 * time.Second}},
			{Key: "default/b", State: api.StateBackoff, Failures: 9, ReleaseIn: metav1.Duration{Duration: 20 * time.Second},
				EarlierRetryIn: metav1.Duration{Duration: 3 * time.Second}},
		}}}, false)
	got := out.String()
	for _, want := range []string{
		"default/a: was backoff, 4 failures reset, retried in 10s\n",
		"default/b: was backoff, 9 failures reset, retried in 3.0s by the retry already pending (its spread slot, in 20s, comes after)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
