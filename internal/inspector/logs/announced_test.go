package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestAnnouncedRetry: kwok's stage worker says each retry on the line after
// its failure; a failure of that template no announcement follows, while
// the log goes on, was dropped (announced.go). Lines of batch23/709,
// verbatim: a 429 retried (its announcement, retry 4), the pod's `Delete
// pod`, a NotFound not retried, a later line.
func TestAnnouncedRetry(t *testing.T) {
	const (
		failed429 = `{"time":"2026-12-07T05:26:01.322844615Z","level":"ERROR","source":{"function":"sigs.k8s.io/kwok/pkg/kwok/controllers.(*PodController).playStageWorker","file":"/root/go/pkg/mod/sigs.k8s.io/kwok@v0.8.0/pkg/kwok/controllers/pod_controller.go","line":290},"msg":"failed to apply stage","id":"vm_71e55be4-5bad-4390-9d01-c1ae00b1cd3a","err":"failed to delete resource for step 0: failed to delete pod invoice-export-29417-7mbxq: Too many requests, please try again later.","pod":"reports/invoice-export-29417-7mbxq","stage":"pod-delete"}`
		announced = `{"time":"2026-12-07T05:26:01.322939556Z","level":"INFO","source":{"function":"sigs.k8s.io/kwok/pkg/kwok/controllers.(*PodController).playStageWorker","file":"/root/go/pkg/mod/sigs.k8s.io/kwok@v0.8.0/pkg/kwok/controllers/pod_controller.go","line":300},"msg":"retrying for failed job","id":"vm_71e55be4-5bad-4390-9d01-c1ae00b1cd3a","pod":"reports/invoice-export-29417-7mbxq","stage":"pod-delete","retry":4}`
		deletePod = `{"time":"2026-12-07T05:26:53.972699926Z","level":"INFO","source":{"function":"sigs.k8s.io/kwok/pkg/kwok/controllers.(*PodController).deleteResource","file":"/root/go/pkg/mod/sigs.k8s.io/kwok@v0.8.0/pkg/kwok/controllers/pod_controller.go","line":185},"msg":"Delete pod","id":"vm_71e55be4-5bad-4390-9d01-c1ae00b1cd3a","pod":"reports/invoice-export-29417-7mbxq","node":"edge-node-18"}`
		notFound  = `{"time":"2026-12-07T05:26:53.975317015Z","level":"ERROR","source":{"function":"sigs.k8s.io/kwok/pkg/kwok/controllers.(*PodController).playStageWorker","file":"/root/go/pkg/mod/sigs.k8s.io/kwok@v0.8.0/pkg/kwok/controllers/pod_controller.go","line":290},"msg":"failed to apply stage","id":"vm_71e55be4-5bad-4390-9d01-c1ae00b1cd3a","err":"failed to delete resource for step 0: failed to delete pod invoice-export-29417-7mbxq: pods \"invoice-export-29417-7mbxq\" not found","pod":"reports/invoice-export-29417-7mbxq","stage":"pod-delete"}`
		later     = `{"time":"2026-12-07T05:27:04.783322966Z","level":"INFO","source":{"function":"sigs.k8s.io/kwok/pkg/kwok/controllers.(*NodeController).patchResource","file":"/root/go/pkg/mod/sigs.k8s.io/kwok@v0.8.0/pkg/kwok/controllers/node_controller.go","line":518},"msg":"Patch node","id":"vm_71e55be4-5bad-4390-9d01-c1ae00b1cd3a","node":"edge-node-17","subresource":"status"}`
	)
	for _, tt := range []struct {
		name  string
		lines []string
		// failures of the pod's key, saved and live (0: no key), and
		// whether a saved read says it failed (dropped); a live one never.
		saved, live int
		dropped     bool
	}{
		{"retried, then dropped", []string{failed429, announced, deletePod, notFound, later}, 2, 2, true},
		{"retried, the log ends", []string{failed429, announced}, 1, 1, false},
		{"no retry announced anywhere", []string{deletePod, notFound, later}, 0, 0, false},
		{"the failure the log's last line", []string{failed429, announced, deletePod, notFound}, 2, 2, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, live := range []bool{false, true} {
				s := NewStore(Options{Live: live, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 7, 5, 40, 0, 0, time.UTC))})
				if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(tt.lines, "\n")+"\n")); err != nil {
					t.Fatal(err)
				}
				_, keys := s.views("")
				want, dropped := tt.saved, tt.dropped
				if live {
					want, dropped = tt.live, false
				}
				if want == 0 {
					if len(keys) != 0 {
						t.Errorf("live %v: read %+v, want no key", live, keys)
					}
					continue
				}
				if len(keys) != 1 || keys[0].Key != "reports/invoice-export-29417-7mbxq" || keys[0].TotalFailures != want || (keys[0].State == api.StateFailed) != dropped {
					t.Errorf("live %v: read %+v, want %d failures, failed %v", live, keys, want, dropped)
				}
			}
		})
	}
}
