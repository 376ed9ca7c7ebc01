package logs

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestKubeControllerManagerLines reads the lines issue #27 quotes from a
// real kube-controller-manager 1.37 (a quota-blocked ReplicaSet, a namespace
// whose deletion is blocked, and the cafile controller's one work item named
// "key"). The issue elides their headers and tails ("E…", "…"); the klog
// header is put back here as klog writes it, the rest as quoted.
func TestKubeControllerManagerLines(t *testing.T) {
	ref := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		line                 string
		controller, key, err string // controller empty: no record
	}{
		{
			line: `E1202 09:12:01.123456       1 replica_set.go:640] "Unhandled Error" err="sync \"q/web-69c6f74b8b\" failed with pods \"web-69c6f74b8b-bmsrj\" is forbidden: exceeded quota: …" logger="UnhandledError"`,
			// replica_set.go serves the ReplicaSet and the
			// ReplicationController controllers; the line says not which.
			controller: kcmAmbiguous, key: "q/web-69c6f74b8b",
			err: `pods "web-69c6f74b8b-bmsrj" is forbidden: exceeded quota: …`,
		},
		{
			line:       `E1202 09:12:01.223456       1 namespace_controller.go:164] "Deletion of namespace failed" err="unable to retrieve the complete list of server APIs: …" logger="UnhandledError" namespace="stuck"`,
			controller: "namespace-controller", key: "stuck",
			err: "unable to retrieve the complete list of server APIs: …",
		},
		{
			// Its one work item is literally named "key": no object's key.
			line: `E1202 09:12:01.323456       1 configmap_cafile_content.go:243] "Unhandled Error" err="key failed with : configmap \"extension-apiserver-authentication\" not found" logger="UnhandledError"`,
		},
	}
	for _, tt := range tests {
		r, ok := Parse([]byte(tt.line), ref)
		if tt.controller == "" {
			if ok {
				t.Errorf("%s: read as %s %q; want no record", tt.line, r.Controller, r.Key())
			}
			continue
		}
		if !ok {
			t.Errorf("%s: not read", tt.line)
			continue
		}
		if r.Controller != tt.controller || r.Key() != tt.key || r.Error != tt.err || !r.ClientGoQueue {
			t.Errorf("%s:\n got  %s %q %q clientGo=%v\n want %s %q %q clientGo=true", tt.line, r.Controller, r.Key(), r.Error, r.ClientGoQueue, tt.controller, tt.key, tt.err)
		}
		if r.Dialect != "kube-controller-manager (klog text)" {
			t.Errorf("dialect = %q", r.Dialect)
		}
	}
}

// TestGenericPrecision holds lines that say "error" and "retry" and name a
// namespace/name, but are not a key's failure: the generic reader must find
// no key in them. Each is one of the ways a loose reader goes wrong.
func TestGenericPrecision(t *testing.T) {
	ref := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	lines := []string{
		// Info level, no error field: not a failure.
		`I1202 09:00:00.000000       1 controller.go:10] Error syncing widget default/w1, requeuing`,
		// No sync/reconcile/handle/process failed: a start-up retry.
		`E1202 09:00:00.000000       1 main.go:10] failed to start informer for default/w1, retrying`,
		// Two different keys before the error: which one failed is not said.
		`E1202 09:00:00.000000       1 controller.go:10] error syncing default/a and default/b, retrying`,
		// No key: a whole-configuration item.
		`W1202 09:00:00.000000       1 queue.go:130] requeuing initial-sync, err Post http://localhost:18080/configuration/backends: connection refused`,
		// An API version is not an object.
		`E1202 09:00:00.000000       1 controller.go:10] error syncing apps/v1, retrying: no kind`,
		// Leader election, with a lease's namespace/name.
		`E1202 09:00:00.000000       1 leaderelection.go:332] error retrieving resource lock kube-system/lock, retrying: leader changed`,
		// The kubelet's pod sync: "skipping", not a work queue's retry.
		`E1202 09:00:00.000000       1 pod_workers.go:191] Error syncing pod default/p, skipping: failed to "StartContainer"`,
	}
	for _, l := range lines {
		if r, ok := Parse([]byte(l), ref); ok {
			t.Errorf("%s: read as %s %q; want no record", l, r.Controller, r.Key())
		}
	}
}

// TestGenericStore reads three excerpts through a store, as log mode does:
// a generic key keeps the line it was read from, a stated retry count is
// the key's failure count, a drop leaves the key failed by a give-up, and
// the limiter is said to be assumed.
func TestGenericStore(t *testing.T) {
	read := func(file string, ref time.Time) *Store {
		t.Helper()
		raw, err := os.ReadFile("testdata/wild/" + file)
		if err != nil {
			t.Fatal(err)
		}
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(ref)})
		if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

	s := read("istio-46065.log", day)
	k, err := s.Key("validation", "istiod-default-validator")
	if err != nil {
		t.Fatal(err)
	}
	if k.Failures != 11 || k.State != api.StateBackoff || !strings.Contains(k.LogLine, "retry count: 11") {
		t.Errorf("istio key: failures %d, state %s, line %q; want 11 (stated), backoff, the line", k.Failures, k.State, k.LogLine)
	}
	cl := s.Controllers()
	if len(cl.Controllers) != 1 || !strings.Contains(cl.Controllers[0].Limiter.Description, "assumed: client-go's DefaultControllerRateLimiter") {
		t.Errorf("limiter = %+v; want client-go's default, said to be assumed", cl.Controllers)
	}

	s = read("longhorn-193.log", time.Date(2018, 8, 9, 0, 0, 0, 0, time.UTC))
	k, err = s.Key("Longhorn volume", "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4")
	if err != nil {
		t.Fatal(err)
	}
	if k.State != api.StateFailed || k.LastReset == nil || k.LastReset.By != api.ResetGaveUp || k.LastReset.Failures != 1 || k.Failures != 0 {
		t.Errorf("dropped key: state %s, reset %+v, failures %d; want failed by a give-up after 1, count 0", k.State, k.LastReset, k.Failures)
	}

	s = read("karmada-4823.log", time.Date(2024, 4, 12, 0, 0, 0, 0, time.UTC))
	k, err = s.Key("resourceBinding_status_controller", "andy/andy-benchmarkdtest35-xcp884-kservice")
	if err != nil {
		t.Fatal(err)
	}
	if k.LogLine != "" {
		t.Errorf("a named dialect's key shows line %q; want none", k.LogLine)
	}
}

// TestGenericStatedDelay: a line that states its retry's delay as a Go
// duration ("Retrying in 2m40s", the in-tree service controller's own
// doubling, batch 3's 74, verbatim from Azure/acs-engine#2151) is
// read with that delay, exact, not the assumed limiter's 5ms; a delay in
// words ("in 5 seconds") is not a stated one.
func TestGenericStatedDelay(t *testing.T) {
	raw, err := os.ReadFile("testdata/batch3/74-kcm-service-klog-retrying-in-stated.log")
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 2, 11, 6, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"kube-system/tiller-deploy", "kube-system/kube-dns"} {
		k, err := s.Key("service_controller", key)
		if err != nil {
			t.Fatal(err)
		}
		if k.Delay.Duration != 2*time.Minute+40*time.Second || k.Estimated {
			t.Errorf("%s: delay %v, estimated %v; want the stated 2m40s, exact", key, k.Delay.Duration, k.Estimated)
		}
	}
	for _, msg := range []string{"Failed to sync ns/x, will try again in 5 seconds: boom", "Failed to sync ns/x: boom"} {
		if m := retryIn.FindStringSubmatch(msg); m != nil {
			t.Errorf("%q: read a stated delay %q", msg, m[1])
		}
	}
	if m := retryIn.FindStringSubmatch("Failed to process service ns/x. Retrying in 2m40s: boom"); m == nil || m[1] != "2m40s" {
		t.Errorf("the stated delay is not read: %v", m)
	}
}
