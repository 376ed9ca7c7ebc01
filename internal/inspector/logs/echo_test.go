package logs

import (
	"os"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestEchoThroughHandleError: cloud-provider's node controller logs each
// failed attempt twice, an info line and the same text through
// HandleError (batch14/1411, run here): counted once each, on the first,
// and --explain-lines says so; the service controller's HandleError lines
// of the same excerpt, which no line repeats, are counted each.
func TestEchoThroughHandleError(t *testing.T) {
	log, err := os.ReadFile("testdata/batch14/1411-cloud-controller-manager-klog-service-retrying-with-exponential-backoff-two-services-and-node-steady.log")
	if err != nil {
		t.Fatal(err)
	}
	var said []LineReading
	s := readKeyAfter(t, string(log), &said)
	for key, want := range map[string]int{"gpu-node-2": 4, "checkout/storefront-gateway": 3, "search/grafana": 3} {
		k := findKey(t, s, key)
		if k.TotalFailures != want {
			t.Errorf("%s: %d failures, want %d", key, k.TotalFailures, want)
		}
	}
	echoes := 0
	for _, lr := range said {
		if strings.Contains(lr.Meaning, "said again through HandleError") {
			echoes++
			if !strings.Contains(lr.Why, "word for word") {
				t.Errorf("line %d: why %q does not name the evidence", lr.Line, lr.Why)
			}
		}
	}
	if echoes != 4 {
		t.Errorf("%d lines read as echoes, want 4 (one per node attempt)", echoes)
	}
}

// TestEchoNeedsTheSameError: a HandleError line of the key whose error
// differs from the line before, or that comes more than a second after it,
// is an attempt of its own; two plain lines of one text are two attempts
// (the limiter retries after 5ms), and so are two HandleError lines.
func TestEchoNeedsTheSameError(t *testing.T) {
	const (
		plain = `I1207 06:09:59.806483   20513 node_controller.go:236] error syncing 'gpu-node-2': boom, requeuing`
		echo  = `E1207 06:09:59.806574   20513 node_controller.go:247] "Unhandled Error" err="error syncing 'gpu-node-2': boom, requeuing" logger="UnhandledError"`
	)
	for name, tc := range map[string]struct {
		log  string
		want int
	}{
		"echo":            {plain + "\n" + echo, 1},
		"other error":     {plain + "\n" + strings.Replace(echo, "boom", "bang", 1), 2},
		"two seconds on":  {plain + "\n" + strings.Replace(echo, "06:09:59", "06:10:01", 1), 2},
		"two plain lines": {plain + "\n" + strings.Replace(plain, "806483", "811483", 1), 2},
		"two echoes":      {echo + "\n" + strings.Replace(echo, "806574", "811574", 1), 2},
		"echo, then next": {plain + "\n" + echo + "\n" + strings.Replace(plain, "806483", "811483", 1) + "\n" + strings.Replace(echo, "806574", "811574", 1), 2},
	} {
		t.Run(name, func(t *testing.T) {
			var said []LineReading
			s := readKeyAfter(t, tc.log+"\n", &said)
			if k := findKey(t, s, "gpu-node-2"); k.TotalFailures != tc.want {
				t.Errorf("%d failures, want %d", k.TotalFailures, tc.want)
			}
		})
	}
}

// findKey is key as the store lists it, under whichever controller.
func findKey(t *testing.T, s *Store, key string) api.Key {
	t.Helper()
	_, keys := s.views("")
	for _, k := range keys {
		if k.Key == key {
			return k
		}
	}
	t.Fatalf("key %s not read; controllers %v", key, s.names())
	return api.Key{}
}

// TestWorkItemFailedTwoControllers: kube-controller-manager's
// serviceaccounts controller says "Service account work item failed" with
// the namespace in item=, and the root-CA publisher fails on the same
// namespace at the same moment with another error (batch14/1420, run
// here): two controllers, each attempt counted, none merged into the
// other's; the resourceclaim controller's "Work item failed, will not
// retry" is not read as a retried failure.
func TestWorkItemFailedTwoControllers(t *testing.T) {
	log, err := os.ReadFile("testdata/batch14/1420-kube-controller-manager-klog-frozen-namespace-serviceaccounts-item-rootca-publisher-endpoints-pdb-quota-burst.log")
	if err != nil {
		t.Fatal(err)
	}
	var said []LineReading
	s := readKeyAfter(t, string(log), &said)
	_, keys := s.views("")
	got := map[string]int{}
	for _, k := range keys {
		if k.Key == "payments-migr" {
			got[k.Controller] = k.TotalFailures
		}
	}
	if len(got) != 2 {
		t.Fatalf("payments-migr under %v, want two controllers", got)
	}
	for c, n := range got {
		if n != 8 {
			t.Errorf("%s: %d failures of payments-migr, want 8", c, n)
		}
	}
	const terminal = `E1207 06:20:46.644850   29834 controller.go:831] "Work item failed, will not retry" err="claim is invalid" logger="UnhandledError" item="team/gpu-claim"`
	s = readKeyAfter(t, terminal+"\n", &said)
	if _, keys := s.views(""); len(keys) != 0 && keys[0].State != api.StateFailed {
		t.Errorf("read %+v as a retried failure", keys[0])
	}
}
