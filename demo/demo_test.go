package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// speed compresses the demo so that an outage lasts 600ms and the backoff cap
// is 5s: every scenario plays out within seconds.
const speed = 200

// startDemo runs a small, fast, deterministic demo for the test's lifetime.
func startDemo(t *testing.T) *Demo {
	t.Helper()
	opts := DefaultOptions()
	opts.Keys, opts.Speed, opts.Seed, opts.Listen = 60, speed, 1, "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	d, err := Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-d.Done():
		case <-time.After(5 * time.Second):
			t.Errorf("demo did not stop within 5s of its context being cancelled")
		}
		if err := d.Wait(); err != nil {
			t.Errorf("Wait: %v", err)
		}
	})
	return d
}

// get decodes one endpoint response into v. A 429 is sent again after its
// Retry-After, as the inspector's client does: the scenarios poll the
// endpoint together, and on a loaded machine (-race, 2 cores) its pacing
// answers some of them busy, as it should.
func get(t *testing.T, d *Demo, path string, params url.Values, v any) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(d.URL() + path + "?" + params.Encode())
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && time.Now().Before(deadline) {
			resp.Body.Close()
			wait, err := strconv.Atoi(resp.Header.Get("Retry-After"))
			if err != nil || wait < 1 || wait > 5 {
				t.Fatalf("GET %s?%s: 429 with Retry-After %q, want 1 to 5 seconds", path, params.Encode(), resp.Header.Get("Retry-After"))
			}
			time.Sleep(time.Duration(wait) * time.Second) // what the endpoint asked for
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s?%s: status %s", path, params.Encode(), resp.Status)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("GET %s: decode: %v", path, err)
		}
		return
	}
}

func keys(t *testing.T, d *Demo, controller string, extra ...string) api.KeyList {
	t.Helper()
	p := url.Values{"controller": {controller}, "limit": {"1000"}}
	for i := 0; i+1 < len(extra); i += 2 {
		p.Set(extra[i], extra[i+1])
	}
	var l api.KeyList
	get(t, d, "v1/keys", p, &l)
	return l
}

func key(t *testing.T, d *Demo, controller, k string) api.KeyDetail {
	t.Helper()
	var kd api.KeyDetail
	get(t, d, "v1/key", url.Values{"controller": {controller}, "key": {k}}, &kd)
	return kd
}

// eventually polls cond until it reports done, failing with its last words
// after the deadline. It never sleeps longer than a poll interval.
func eventually(t *testing.T, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	for time.Now().Before(deadline) {
		var ok bool
		if ok, last = cond(); ok {
			return
		}
		time.Sleep(10 * time.Millisecond) // poll interval, not a wait for an outcome
	}
	t.Fatalf("not within %v: %s", timeout, last)
}

func TestDemoScenarios(t *testing.T) {
	d := startDemo(t)
	tests := []struct {
		name  string
		check func(t *testing.T)
	}{
		{"outage backs off then recovers", func(t *testing.T) { checkOutage(t, d) }},
		{"naive retries with growing delay", func(t *testing.T) { checkNaive(t, d) }},
		{"well-behaved fails without retries", func(t *testing.T) { checkWellBehaved(t, d) }},
		{"polling is scheduled by RequeueAfter", func(t *testing.T) { checkPolling(t, d) }},
		{"edit during backoff keeps the failures", func(t *testing.T) { checkEdit(t, d) }},
		{"conflicts succeed on the next pass", func(t *testing.T) { checkConflicts(t, d) }},
		{"slow keys are seen running", func(t *testing.T) { checkSlow(t, d) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.check(t)
		})
	}
}

// checkOutage follows one outage key: in backoff, its failures rising, then
// idle again after the outage, with a success after the failures began.
func checkOutage(t *testing.T, d *Demo) {
	var followed string
	var first, firstFailure time.Time
	var failures int
	rising := false
	eventually(t, 20*time.Second, func() (bool, string) {
		if followed == "" {
			l := keys(t, d, outageName, "state", "backoff", "sort", "failures")
			if len(l.Items) == 0 || l.Items[0].Failures < 1 {
				return false, "no outage key in backoff"
			}
			k := l.Items[len(l.Items)-1] // the fewest failures: most of the rise ahead
			followed, failures, firstFailure, first = k.Key, k.Failures, k.FirstFailureAt, l.ServerTime
			return false, "following " + followed
		}
		k := key(t, d, outageName, followed)
		switch {
		case k.Failures > failures && k.FirstFailureAt.Equal(firstFailure):
			rising = true
			failures = k.Failures
		case k.State == api.StateIdle && rising && k.Failures == 0 && k.LastSuccessAt.After(first):
			return true, ""
		case k.State == api.StateIdle && !rising:
			followed = "" // recovered before we saw it climb: try the next outage
		}
		return false, fmt.Sprintf("%s: state %s, failures %d, rising %v", followed, k.State, k.Failures, rising)
	})
}

// checkNaive waits for a naive key's history to show the same error retried
// with a delay that keeps growing.
func checkNaive(t *testing.T, d *Demo) {
	eventually(t, 20*time.Second, func() (bool, string) {
		l := keys(t, d, naiveName, "sort", "key")
		if len(l.Items) == 0 {
			return false, "no naive keys"
		}
		k := key(t, d, naiveName, l.Items[0].Key)
		var delays []time.Duration
		for _, a := range k.History {
			if a.Outcome != api.OutcomeError || !strings.Contains(a.Error, "spec.storageClass must be set") {
				return false, fmt.Sprintf("%s: unexpected attempt %+v", k.Key.Key, a)
			}
			if a.Delay.Duration > 0 {
				delays = append(delays, a.Delay.Duration)
			}
		}
		for i := 1; i < len(delays); i++ {
			if delays[i] < delays[i-1] {
				return false, fmt.Sprintf("%s: delays shrank: %v", k.Key.Key, delays)
			}
		}
		if len(delays) < 5 || delays[len(delays)-1] <= delays[0] {
			return false, fmt.Sprintf("%s: delays so far %v", k.Key.Key, delays)
		}
		if k.Failures < 5 {
			return false, fmt.Sprintf("%s: failures %d", k.Key.Key, k.Failures)
		}
		return true, ""
	})
}

// checkWellBehaved: every well-behaved key failed once, terminally, and was
// never retried; the limiter has no failures for it.
func checkWellBehaved(t *testing.T, d *Demo) {
	eventually(t, 10*time.Second, func() (bool, string) {
		l := keys(t, d, wellBehavedName)
		if l.Total == 0 {
			return false, "no well-behaved keys"
		}
		for _, k := range l.Items {
			if k.State != api.StateFailed || k.Reconciles != 1 || k.Failures != 0 ||
				k.LastError == nil || !strings.Contains(k.LastError.Message, "spec.storageClass must be set") {
				return false, fmt.Sprintf("%s: state %s, reconciles %d, failures %d", k.Key, k.State, k.Reconciles, k.Failures)
			}
		}
		return true, ""
	})
}

// checkPolling finds polling keys scheduled by RequeueAfter, at 30s/speed.
func checkPolling(t *testing.T, d *Demo) {
	want := 30 * time.Second / speed
	eventually(t, 10*time.Second, func() (bool, string) {
		l := keys(t, d, pollingName, "state", "scheduled")
		for _, k := range l.Items {
			if k.DelaySource != api.SourceRequeueAfter || k.Delay.Duration != want || k.Failures != 0 {
				return false, fmt.Sprintf("%s: delay %v from %q, failures %d", k.Key, k.Delay, k.DelaySource, k.Failures)
			}
		}
		return len(l.Items) > 0, "no scheduled polling key"
	})
}

// checkEdit snapshots the naive keys, then waits for one whose lastEventAt
// moved (a user edit) while its failure count carried on rather than reset.
func checkEdit(t *testing.T, d *Demo) {
	var before map[string]api.Key
	eventually(t, 20*time.Second, func() (bool, string) {
		l := keys(t, d, naiveName)
		if before == nil {
			before = map[string]api.Key{}
			for _, k := range l.Items {
				if k.Failures >= 3 {
					before[k.Key] = k
				}
			}
			if len(before) == 0 {
				before = nil
			}
			return false, "waiting for failing naive keys"
		}
		for _, k := range l.Items {
			b, ok := before[k.Key]
			if ok && k.LastEventAt.After(b.LastEventAt) {
				if k.Failures < b.Failures || !k.FirstFailureAt.Equal(b.FirstFailureAt) {
					return false, fmt.Sprintf("%s: edited, but failures %d -> %d (streak since %v -> %v)", k.Key, b.Failures, k.Failures, b.FirstFailureAt, k.FirstFailureAt)
				}
				return true, ""
			}
		}
		return false, "no edit seen yet"
	})
}

// checkConflicts finds a conflicts key that hit a conflict and then succeeded.
func checkConflicts(t *testing.T, d *Demo) {
	eventually(t, 10*time.Second, func() (bool, string) {
		for _, k := range keys(t, d, conflictsName, "q", "object was modified").Items {
			if k.LastSuccessAt.After(k.LastError.At) {
				return true, ""
			}
		}
		return false, "no conflict resolved yet"
	})
}

// checkSlow sees a slow key running.
func checkSlow(t *testing.T, d *Demo) {
	eventually(t, 10*time.Second, func() (bool, string) {
		l := keys(t, d, slowName, "state", "running")
		return len(l.Items) > 0 && !l.Items[0].StartedAt.IsZero(), "no slow key running"
	})
}

// TestObjectServesStandInStatus: the demo serves its objects, read from its
// in-process store, with the annotations its controllers keep in place of a
// status where a custom resource has them: the well-behaved controller's
// Ready=False condition of an invalid object, the generation a user edit bumped.
func TestObjectServesStandInStatus(t *testing.T) {
	d := startDemo(t)
	ctx := context.Background()
	name := objectName(wellBehavedName, 1)
	var cond map[string]any
	deadline := time.Now().Add(20 * time.Second)
	for cond == nil {
		u, err := d.Object(ctx, "", "v1", "ConfigMap", d.opts.Namespace, name)
		if err != nil {
			t.Fatalf("Object(%s): %v", name, err)
		}
		if u.GetKind() != "ConfigMap" || u.GetName() != name {
			t.Fatalf("Object(%s) = %s %s", name, u.GetKind(), u.GetName())
		}
		if conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions"); len(conds) == 1 {
			cond, _ = conds[0].(map[string]any)
		}
		if time.Now().After(deadline) {
			t.Fatalf("Object(%s): no condition written by its controller within 20s: %v", name, u.Object["status"])
		}
		time.Sleep(10 * time.Millisecond) // between polls of the condition
	}
	if cond["type"] != "Ready" || cond["status"] != "False" || cond["reason"] != "InvalidSpec" || cond["message"] != errNoStorageClass.Error() {
		t.Errorf("condition %v, want Ready=False InvalidSpec: %s", cond, errNoStorageClass)
	}
	if _, err := d.Object(ctx, "apps", "v1", "Deployment", d.opts.Namespace, name); !apierrors.IsNotFound(err) {
		t.Errorf("Object of a Deployment: %v, want NotFound (the demo keeps only ConfigMaps)", err)
	}
	if _, err := d.Object(ctx, "", "v1", "ConfigMap", d.opts.Namespace, "nope"); !apierrors.IsNotFound(err) {
		t.Errorf("Object of a missing ConfigMap: %v, want NotFound", err)
	}
}
