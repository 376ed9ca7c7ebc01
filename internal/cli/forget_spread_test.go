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
// it really runs, not the slot. A key without one says its slot; the key
// of the first slot (released at 0) says it is retried now.
func TestForgetSpreadSaysWhichRetryRuns(t *testing.T) {
	var out bytes.Buffer
	o := &ForgetOptions{IOStreams: genericiooptions.IOStreams{Out: &out}, Requeue: true, Spread: time.Minute}
	o.printForgotten([]*api.ForgetResponse{{Controller: "alpha", Count: 3, Requeued: true, Message: "forgot the backoff of 3 keys of alpha",
		Keys: []api.ForgottenKey{
			{Key: "default/first", State: api.StateBackoff, Failures: 2}, // the first slot: released at once
			{Key: "default/a", State: api.StateBackoff, Failures: 4, ReleaseIn: metav1.Duration{Duration: 10 * time.Second}},
			{Key: "default/b", State: api.StateBackoff, Failures: 9, ReleaseIn: metav1.Duration{Duration: 20 * time.Second},
				EarlierRetryIn: metav1.Duration{Duration: 3 * time.Second}},
		}}}, false)
	got := out.String()
	for _, want := range []string{
		"default/first: was backoff, 2 failures reset, retried now\n",
		"default/a: was backoff, 4 failures reset, retried in 10s\n",
		"default/b: was backoff, 9 failures reset, retried in 3.0s by the retry already pending (its spread slot, in 20s, comes after)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestForgetDryRunSpreadSaysTheFirstSlot: a dry run of a spread forget
// says the first key would be retried now, as the real forget says it is
// (the endpoint's preview is not Requeued: nothing was); without it, the
// first key reads as the one left out of the retry.
func TestForgetDryRunSpreadSaysTheFirstSlot(t *testing.T) {
	var out bytes.Buffer
	o := &ForgetOptions{IOStreams: genericiooptions.IOStreams{Out: &out}, Requeue: true, Spread: time.Minute, DryRun: true}
	o.printForgotten([]*api.ForgetResponse{{Controller: "alpha", Count: 2, DryRun: true, Message: "would forget the backoff of 2 keys of alpha",
		Keys: []api.ForgottenKey{
			{Key: "default/first", State: api.StateBackoff, Failures: 2},
			{Key: "default/a", State: api.StateBackoff, Failures: 4, ReleaseIn: metav1.Duration{Duration: 30 * time.Second}},
		}}}, false)
	got := out.String()
	for _, want := range []string{
		"default/first: was backoff, 2 failures to reset, would be retried now\n",
		"default/a: was backoff, 4 failures to reset, would be retried in 30s\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
