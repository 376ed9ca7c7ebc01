package explain

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestRetryOfAnOlderAttempt: the demo's outage key demo/outage-00001 on
// hack/try-cluster.sh (classic queue), its history as describe read it.
// Watch events ran it twice while the retry set at 11:06:48 (41s) waited;
// that retry ran at 11:07:29, and describe's TRIGGER said "retry after
// 2m44s", the delay of the row before, 13s earlier. It is the retry of
// 11:06:48, as 11:12:56 is the retry of 11:07:29 (5m28s); a retry that
// waited the row before's delay keeps "retry after".
func TestRetryOfAnOlderAttempt(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse("15:04:05.000", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	d := func(s string) metav1.Duration { v, _ := time.ParseDuration(s); return metav1.Duration{Duration: v} }
	hist := []api.Attempt{
		{At: at("11:06:27.782"), Trigger: api.TriggerRetry, Outcome: api.OutcomeError, Delay: d("20.48s")},
		{At: at("11:06:48.263"), Trigger: api.TriggerRetry, Outcome: api.OutcomeError, Delay: d("40.96s")},
		{At: at("11:07:04.251"), Trigger: api.TriggerEvent, Preempted: true, Outcome: api.OutcomeError, Delay: d("81.92s")},
		{At: at("11:07:16.255"), Trigger: api.TriggerEvent, Preempted: true, Outcome: api.OutcomeError, Delay: d("163.84s")},
		{At: at("11:07:29.224"), Trigger: api.TriggerRetry, Outcome: api.OutcomeError, Delay: d("327.68s")},
		{At: at("11:07:31.247"), Trigger: api.TriggerEvent, Preempted: true, Outcome: api.OutcomeError, Delay: d("655.36s")},
		{At: at("11:10:58.207"), Trigger: api.TriggerEvent, Preempted: true, Outcome: api.OutcomeError, Delay: d("16m40s")},
		{At: at("11:12:56.905"), Trigger: api.TriggerRetry, Outcome: api.OutcomeError, Delay: d("16m40s")},
	}
	for i, want := range map[int]string{
		1: "retry after 20s",
		2: "event (pre-empted)",
		4: "retry of 11:06:48",
		7: "retry of 11:07:29",
	} {
		if got := TriggerCellAt(hist, i); got != want {
			t.Errorf("row %d (%s): %q, want %q", i, hist[i].At.Format("15:04:05"), got, want)
		}
	}
}
