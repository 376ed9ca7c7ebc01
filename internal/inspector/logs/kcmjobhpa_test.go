package logs

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestKCMJobAndHPA: kube-controller-manager's job and HPA controllers
// log failure lines that name no key (testdata/kcm, a real run at -v=4,
// and the same lines less those its source logs at V(3) or above: -v=2).
// The job's "syncing job: ERR" (job_controller.go:753) takes the key of
// its attempt's "Finished syncing job" key= (V(4)) or "Failed creation"
// job= (V(2)) line; the HPA's (horizontal.go:354), naming its target, that
// of "Successfully updated status" HPA= just before. Counted from the
// files by hand: five job_controller.go:753 lines, 1s, 2s, 4s and 8s
// apart (its 1s..1m limiter: next 16s), and two horizontal.go:354, 15s
// apart, the second with no line naming the HPA before it: read by the
// target the first was named with (its fixed 15s). Neither file's other lines are a key: the pod's own
// HandleError (job_controller.go:1941) is not the sync's failure.
func TestKCMJobAndHPA(t *testing.T) {
	for _, c := range []struct {
		file, controller, key string
		failures              int
		last                  string
		at                    time.Time
		delay                 time.Duration
		source                string // the delay's: the job's limiter doubles, the HPA's is fixed
	}{
		{"job-podsecurity-v4.log", "job-controller", "psa/migrate", 5, `pods "migrate-jxl6j" is forbidden: violates PodSecurity`, time.Date(2026, 12, 6, 15, 21, 44, 409142884, time.UTC), 16 * time.Second, api.SourceItemExponential},
		{"job-podsecurity-v2.log", "job-controller", "psa/migrate", 5, `pods "migrate-jxl6j" is forbidden: violates PodSecurity`, time.Date(2026, 12, 6, 15, 21, 44, 409142884, time.UTC), 16 * time.Second, api.SourceItemExponential},
		{"hpa-missing-target-v4.log", "horizontal-pod-autoscaler-controller", "missing/web", 2, `deployments.apps "web" not found`, time.Date(2026, 12, 6, 15, 27, 23, 884673876, time.UTC), 15 * time.Second, api.SourceItemFixed},
		{"hpa-missing-target-v2.log", "horizontal-pod-autoscaler-controller", "missing/web", 2, `deployments.apps "web" not found`, time.Date(2026, 12, 6, 15, 27, 23, 884673876, time.UTC), 15 * time.Second, api.SourceItemFixed},
	} {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/kcm/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 6, 15, 27, 24, 0, time.UTC))})
			if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
				t.Fatal(err)
			}
			k, err := s.Key(c.controller, c.key)
			if err != nil {
				t.Fatalf("%v; controllers %v", err, s.names())
			}
			if k.TotalFailures != c.failures || k.LastError == nil || !bytes.HasPrefix([]byte(k.LastError.Message), []byte(c.last)) || !k.LastError.At.Equal(c.at) {
				t.Errorf("%s: %d failures, last error %+v; want %d, %q… at %v", c.key, k.TotalFailures, k.LastError, c.failures, c.last, c.at)
			}
			if k.Delay.Duration != c.delay || k.DelaySource != c.source {
				t.Errorf("%s: next retry in %v (%s); want %v (%s)", c.key, k.Delay.Duration, k.DelaySource, c.delay, c.source)
			}
			if n := s.Len(); n != 1 {
				t.Errorf("%d keys (%v); want %s alone", n, s.names(), c.key)
			}
		})
	}
}
