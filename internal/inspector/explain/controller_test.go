package explain_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// diagNow is the server time of the controller diagnoses: 12 minutes into an outage.
var diagNow = time.Date(2026, 11, 30, 8, 13, 0, 0, time.UTC)

// forecastWith is a 60-second forecast with counts at the given seconds.
func forecastWith(at map[int]int) []int {
	f := make([]int, api.ForecastSeconds)
	for i, n := range at {
		f[i] = n
	}
	return f
}

func intp(n int) *int { return &n }

// demoControllers are the controllers of `kubectl backoff demo`, as
// v1/controllers describes them in each situation, with their error groups.
func demoControllers() map[string]struct {
	c      api.Controller
	groups []api.ErrorGroup
} {
	pq := api.Limiter{Description: "item-exponential 5ms..16m40s", Components: []api.LimiterComponent{exponential}}
	classic := api.Limiter{Description: "max(item-exponential 5ms..16m40s, bucket 10qps/100)", Components: []api.LimiterComponent{exponential, bucketWith(0)}}
	since := diagNow.Add(-12 * time.Minute)
	return map[string]struct {
		c      api.Controller
		groups []api.ErrorGroup
	}{
		"outage with bucket": {
			c: api.Controller{Name: "outage", Active: true, Limiter: classic, Keys: 120, QueueDepth: intp(4),
				Counts:   map[api.State]int{api.StateBackoff: 100, api.StateIdle: 20},
				Forecast: forecastWith(map[int]int{1: 10, 4: 62, 9: 10}), Pending: 100},
			groups: []api.ErrorGroup{{Controller: "outage", Fingerprint: "sync with inventory API: PUT <url>: 503 Service Unavailable",
				Message: "sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00017: 503 Service Unavailable",
				Class:   api.ClassTransient, Count: 100, FirstSeen: diagNow.Add(-12 * time.Minute), LastSeen: diagNow,
				Examples: []string{"demo/outage-00017", "demo/outage-00018", "demo/outage-00019", "demo/outage-00020"}}},
		},
		"permanent error": {
			c: api.Controller{Name: "naive", Active: true, Limiter: pq, Keys: 100,
				Counts: map[api.State]int{api.StateBackoff: 20, api.StateIdle: 80}, Forecast: forecastWith(map[int]int{17: 3}), Pending: 20},
			groups: []api.ErrorGroup{{Controller: "naive", Fingerprint: "spec.storageClass must be set", Message: "spec.storageClass must be set",
				Class: api.ClassPermanent, Count: 20, FirstSeen: since, LastSeen: diagNow, Examples: []string{"demo/naive-00003"}}},
		},
		"polling": {
			c: api.Controller{Name: "polling", Active: true, Limiter: pq, Keys: 150,
				Counts: map[api.State]int{api.StateScheduled: 140, api.StateIdle: 10}, Forecast: forecastWith(map[int]int{12: 60, 13: 80}), Pending: 140},
		},
		"conflicts": {
			c: api.Controller{Name: "conflicts", Active: true, Limiter: pq, Keys: 100,
				Counts: map[api.State]int{api.StateBackoff: 3, api.StateIdle: 97}, Forecast: forecastWith(map[int]int{0: 3}), Pending: 3},
			groups: []api.ErrorGroup{{Controller: "conflicts", Class: api.ClassTransient, Count: 3, FirstSeen: diagNow.Add(-time.Second), LastSeen: diagNow,
				Message:  `Operation cannot be fulfilled on configmaps "conflicts-00007": the object has been modified; please apply your changes to the latest version and try again`,
				Examples: []string{"demo/conflicts-00007"}}},
		},
		"slow": {
			c: api.Controller{Name: "slow", Active: true, Limiter: pq, Keys: 20, QueueDepth: intp(6),
				Counts: map[api.State]int{api.StateRunning: 2, api.StateQueued: 6, api.StateScheduled: 12}, Forecast: forecastWith(map[int]int{3: 2, 7: 1}), Pending: 12},
		},
		"healthy": {
			c: api.Controller{Name: "wellbehaved", Active: true, Limiter: pq, Keys: 80, Counts: map[api.State]int{api.StateIdle: 80}, Forecast: forecastWith(nil)},
		},
	}
}

// checkControllerDiagnosis compares every part of a controller diagnosis.
func checkControllerDiagnosis(t *testing.T, got, want explain.ControllerDiagnosis) {
	t.Helper()
	if got.Controller != want.Controller || got.Situation != want.Situation {
		t.Errorf("controller %q situation %q, want %q %q", got.Controller, got.Situation, want.Controller, want.Situation)
	}
	if got.Summary != want.Summary {
		t.Errorf("Summary:\n got %q\nwant %q", got.Summary, want.Summary)
	}
	if !slices.Equal(got.Details, want.Details) {
		t.Errorf("Details:\n got %q\nwant %q", got.Details, want.Details)
	}
	if !slices.EqualFunc(got.Findings, want.Findings, func(a, b explain.Finding) bool { return a.String() == b.String() }) {
		t.Errorf("Findings:\n got %q\nwant %q", got.Findings, want.Findings)
	}
}

// TestDiagnoseControllerDemo: one diagnosis for each situation the demo produces.
func TestDiagnoseControllerDemo(t *testing.T) {
	demo := demoControllers()
	tests := []struct {
		name string
		want explain.ControllerDiagnosis
	}{{
		name: "outage with bucket",
		want: explain.ControllerDiagnosis{Controller: "outage", Situation: explain.SituationOutage,
			Summary: "100 keys backing off since 08:01:00 on one transient error (sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00017: 503 Service Unavailable); " +
				"the token bucket is empty: retries throttled to 10/s; next wave of 62 in 4s",
			Details: []string{
				"Keys: 120 tracked: 100 backoff, 20 idle; queue depth 4",
				"Limiter: max(item-exponential 5ms..16m40s, bucket 10qps/100); the token bucket is empty, 0.0 of its 100 tokens left: a new retry waits about 100ms",
				"Errors of the failing keys, largest first:",
				"  100 keys, transient since 08:01:00: sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00017: 503 Service Unavailable (e.g. demo/outage-00017, demo/outage-00018, demo/outage-00019)",
				"Retries to come: 100; 82 in the next 60s, at most 62 a second (in 4s)",
			},
			Findings: []explain.Finding{{Code: explain.FindingTransient,
				Message: "What the controller depends on is failing, and the backoff is doing its job: nothing to change in the controller. " +
					"Once the dependency is back, `kubectl backoff forget --controller outage --all --state backoff --requeue --spread 1m` retries the keys now, spread over a minute, instead of after their delays."}}},
	}, {
		name: "permanent error",
		want: explain.ControllerDiagnosis{Controller: "naive", Situation: explain.SituationPermanent,
			Summary: "20 keys failing for 12m0s on the same permanent error: spec.storageClass must be set",
			Details: []string{
				"Keys: 100 tracked: 20 backoff, 80 idle",
				"Limiter: item-exponential 5ms..16m40s",
				"Errors of the failing keys, largest first:",
				"  20 keys, permanent since 08:01:00: spec.storageClass must be set (e.g. demo/naive-00003)",
				"Retries to come: 20; 3 in the next 60s, at most 3 a second (in 17s)",
			},
			Findings: []explain.Finding{{Code: explain.FindingPermanent,
				Message: "Retrying cannot fix an error only a change to the object or to what it depends on (a quota, a missing object it refers to) can, and the growing backoff delays that change: fix what the error names, in each failing key's object or in what it depends on. For the controller's author: record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying."}}},
	}, {
		name: "polling",
		want: explain.ControllerDiagnosis{Controller: "polling", Situation: explain.SituationHealthy,
			Summary: "healthy: 150 keys, none failing; 140 polling (RequeueAfter)",
			Details: []string{
				"Keys: 150 tracked: 140 scheduled, 10 idle",
				"Limiter: item-exponential 5ms..16m40s",
				"Re-checks to come: 140; 140 in the next 60s, at most 80 a second (in 13s)",
			},
			Findings: []explain.Finding{{Code: explain.FindingHerd,
				Message: "80 retries fall due in the same second (in 13s) and nothing paces them (no token bucket): they arrive as a herd; " +
					"add jitter: wrap the rate limiter in instrument.JitterLimiter (±25% by default) and set instrument.Options.Jitter for RequeueAfter."}}},
	}, {
		name: "conflicts",
		want: explain.ControllerDiagnosis{Controller: "conflicts", Situation: explain.SituationRetrying,
			Summary: "3 keys retrying after write conflicts (the object has been modified): normal when several writers update the same objects; each retry reads the new version",
			Details: []string{
				"Keys: 100 tracked: 3 backoff, 97 idle",
				"Limiter: item-exponential 5ms..16m40s",
				"Errors of the failing keys, largest first:",
				`  3 keys, transient since 08:12:59: Operation cannot be fulfilled on configmaps "conflicts-00007": the object has been modified; please apply your changes to the latest version and try again (e.g. demo/conflicts-00007)`,
				"Retries to come: 3; 3 in the next 60s, at most 3 a second (in under 1s)",
			}},
	}, {
		name: "slow",
		want: explain.ControllerDiagnosis{Controller: "slow", Situation: explain.SituationBusy,
			Summary: "busy: 6 keys queued behind 2 running reconciles; none failing",
			Details: []string{
				"Keys: 20 tracked: 12 scheduled, 6 queued, 2 running; queue depth 6",
				"Limiter: item-exponential 5ms..16m40s",
				"Re-checks to come: 12; 3 in the next 60s, at most 2 a second (in 3s)",
			}},
	}, {
		name: "healthy",
		want: explain.ControllerDiagnosis{Controller: "wellbehaved", Situation: explain.SituationHealthy,
			Summary: "healthy: 80 keys, none failing",
			Details: []string{"Keys: 80 tracked: 80 idle", "Limiter: item-exponential 5ms..16m40s"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, ok := demo[tt.name]
			if !ok {
				t.Fatalf("no demo controller %q", tt.name)
			}
			got := explain.DiagnoseController(in.c, nil, in.groups, diagNow)
			checkControllerDiagnosis(t, got, tt.want)
			if line := got.Line(); line != tt.want.Controller+" — "+tt.want.Summary {
				t.Errorf("Line() = %q, want the name, a dash and the summary", line)
			}
		})
	}
}

// TestDiagnoseControllerCases: the situations around the demo's, and what
// a diagnosis does with partial knowledge.
func TestDiagnoseControllerCases(t *testing.T) {
	pq := api.Limiter{Description: "item-exponential 5ms..16m40s", Components: []api.LimiterComponent{exponential}}
	group := func(controller, msg, class string, n int, since time.Duration) api.ErrorGroup {
		return api.ErrorGroup{Controller: controller, Message: msg, Class: class, Count: n, FirstSeen: diagNow.Add(-since), LastSeen: diagNow}
	}
	failing := func(backoff, failed int) api.Controller {
		return api.Controller{Name: "widget", Active: true, Limiter: pq, Keys: backoff + failed,
			Counts: map[api.State]int{api.StateBackoff: backoff, api.StateFailed: failed}}
	}
	tests := []struct {
		name   string
		c      api.Controller
		groups []api.ErrorGroup
		want   explain.ControllerDiagnosis
	}{{
		name: "failed for good on a terminal error: the controller does right, the objects need a fix",
		c:    failing(0, 20),
		want: explain.ControllerDiagnosis{Situation: explain.SituationFailed,
			Summary: "20 keys failed for good: not retried until their objects change",
			Findings: []explain.Finding{{Code: explain.FindingPermanent,
				Message: "The controller reports these errors and stops retrying, as it should: fix the objects (describe one of the keys for its events and conditions); each fix is reconciled at once."}}},
	}, {
		name:   "an unclassified error that lasts looks permanent",
		c:      failing(20, 0),
		groups: []api.ErrorGroup{group("widget", "spec.storageClass must be set", "", 20, 12*time.Minute)},
		want: explain.ControllerDiagnosis{Situation: explain.SituationPermanent,
			Summary: "20 keys failing for 12m0s on the same error, which looks permanent (unclassified, lasting): spec.storageClass must be set",
			Findings: []explain.Finding{{Code: explain.FindingPermanent,
				Message: "Retrying cannot fix an error only a change to the object or to what it depends on (a quota, a missing object it refers to) can, and the growing backoff delays that change: fix what the error names, in each failing key's object or in what it depends on. For the controller's author: record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying."}}},
	}, {
		name:   "an unclassified error that has not lasted is only failing",
		c:      failing(20, 0),
		groups: []api.ErrorGroup{group("widget", "spec.storageClass must be set", api.ClassUnknown, 20, time.Minute)},
		want: explain.ControllerDiagnosis{Situation: explain.SituationFailing,
			Summary: "20 keys failing since 08:12:00 on one error (spec.storageClass must be set)"},
	}, {
		name:   "the largest of several errors unclassified: no class named",
		c:      failing(20, 0),
		groups: []api.ErrorGroup{group("widget", "spec.storageClass must be set", api.ClassUnknown, 15, time.Minute), group("widget", "quota", api.ClassUnknown, 5, time.Minute)},
		want: explain.ControllerDiagnosis{Situation: explain.SituationFailing,
			Summary: "20 keys failing since 08:12:00 on 2 errors, 15 keys on the largest (spec.storageClass must be set)"},
	}, {
		// A log of two keys failing on two errors (batch10/234, harvester)
		// read "2 errors, 1 keys on the largest": no group is the largest.
		name:   "every key its own error: none is the largest",
		c:      failing(2, 0),
		groups: []api.ErrorGroup{group("widget", "raw version isn't assigned yet", api.ClassUnknown, 1, time.Minute), group("widget", "iso version isn't assigned yet", api.ClassTransient, 1, time.Minute)},
		want: explain.ControllerDiagnosis{Situation: explain.SituationFailing,
			Summary: "2 keys failing since 08:12:00 on 2 errors, a different one each (the first: raw version isn't assigned yet)"},
	}, {
		name: "a transient error on many keys, among others; other controllers' groups ignored",
		c:    failing(30, 0),
		groups: []api.ErrorGroup{group("other", "x", api.ClassPermanent, 500, time.Hour),
			group("widget", "GET https://db: 503", api.ClassTransient, 25, 3*time.Minute), group("widget", "timeout", api.ClassTransient, 5, time.Minute)},
		want: explain.ControllerDiagnosis{Situation: explain.SituationOutage,
			Summary: "30 keys backing off since 08:10:00 on 2 errors, 25 on a transient one (GET https://db: 503)",
			Findings: []explain.Finding{{Code: explain.FindingTransient,
				Message: "What the controller depends on is failing, and the backoff is doing its job: nothing to change in the controller. " +
					"Once the dependency is back, `kubectl backoff forget --controller widget --all --state backoff --requeue --spread 1m` retries the keys now, spread over a minute, instead of after their delays."}}},
	}, {
		name: "no error groups (a server without v1/errors): the counts alone",
		c:    failing(7, 0),
		want: explain.ControllerDiagnosis{Situation: explain.SituationFailing, Summary: "7 keys backing off"},
	}, {
		// The well-behaved demo controller: terminal errors for the invalid
		// objects, and a conflict now and then writing their condition.
		name:   "failed for good, and a few retrying: the retrying ones lead",
		c:      failing(2, 20),
		groups: []api.ErrorGroup{group("widget", `record condition: Operation cannot be fulfilled on configmaps "w-3": the object has been modified`, api.ClassTransient, 2, time.Second)},
		want: explain.ControllerDiagnosis{Situation: explain.SituationRetrying,
			Summary: "2 keys retrying after write conflicts (the object has been modified): normal when several writers update the same objects; each retry reads the new version; " +
				"20 more failed for good (not retried until their objects change)"},
	}, {
		name: "standby",
		c:    api.Controller{Name: "widget", Limiter: pq},
		want: explain.ControllerDiagnosis{Situation: explain.SituationStandby,
			Summary: "standby: not active in this replica (not the leader, or not started): no queue, no keys"},
	}, {
		name: "no keys yet",
		c:    api.Controller{Name: "widget", Active: true},
		want: explain.ControllerDiagnosis{Situation: explain.SituationHealthy, Summary: "healthy: no keys yet"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := explain.DiagnoseController(tt.c, nil, tt.groups, diagNow)
			tt.want.Controller = "widget"
			got.Details = nil // TestDiagnoseControllerDetails reads them
			checkControllerDiagnosis(t, got, tt.want)
		})
	}
}

func TestDiagnoseControllerDetails(t *testing.T) {
	c := api.Controller{Name: "widget", Active: true, Keys: 9, Counts: map[api.State]int{api.StateBackoff: 9}}
	var groups []api.ErrorGroup
	for i := range 7 {
		groups = append(groups, api.ErrorGroup{Controller: "widget", Message: "error\n\tnumber " + string(rune('a'+i)), Count: 1 + i%2})
	}
	d := explain.DiagnoseController(c, nil, groups, diagNow)
	want := []string{
		"Keys: 9 tracked: 9 backoff",
		"Errors of the failing keys, largest first:",
		"  2 keys: error number b",
		"  2 keys: error number d",
		"  2 keys: error number f",
		"  1 key: error number a",
		"  1 key: error number c",
		"  … and 2 more errors on 2 keys",
	}
	if !slices.Equal(d.Details, want) {
		t.Errorf("Details:\n got %q\nwant %q", d.Details, want)
	}
	s := d.String()
	if lines := len(strings.Split(s, "\n")); !strings.HasPrefix(s, d.Line()+"\n"+want[0]) || lines != 1+len(want)+len(d.Findings) {
		t.Errorf("String() = %q: want the line, the details, then the findings", s)
	}
}

// TestDiagnoseControllerSameErrorOnlyWhenItIs: two keys failing on two
// different errors (issue #42: a missing ServiceAccount beside an exceeded
// quota, in a kube-controller-manager log) are not "2 keys … on the same
// permanent error": the summary says how many share the error it quotes.
func TestDiagnoseControllerSameErrorOnlyWhenItIs(t *testing.T) {
	c := api.Controller{Name: "replicaset-controller", Active: true, Keys: 2, Counts: map[api.State]int{api.StateBackoff: 2}}
	groups := []api.ErrorGroup{
		{Controller: c.Name, Class: api.ClassPermanent, Count: 1, FirstSeen: diagNow.Add(-12 * time.Minute), LastSeen: diagNow,
			Message: `pods "web-7655778b6f-lkqkt" is forbidden: error looking up service account team/builder: serviceaccount "builder" not found`, Examples: []string{"team/web-7655778b6f"}},
		{Controller: c.Name, Class: api.ClassPermanent, Count: 1, FirstSeen: diagNow.Add(-5 * time.Minute), LastSeen: diagNow,
			Message: `pods "api-5d4f8c6b7-x2x4z" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`, Examples: []string{"q/api-5d4f8c6b7"}},
	}
	d := explain.DiagnoseController(c, nil, groups, diagNow)
	if strings.Contains(d.Summary, "same") || !strings.Contains(d.Summary, "2 keys failing") || !strings.Contains(d.Summary, "1 of them for 12m0s on a permanent error") {
		t.Errorf("Summary = %q; want the 2 keys, 1 of them on the error quoted, never \"the same\"", d.Summary)
	}
}

// TestDiagnoseControllerSubsetsOwnDuration: how long the quoted error has
// lasted is its keys', not every failing key's. Read from batch15's
// provisioner log, top's header said "2 keys failing for 0s, 1 of them on
// a permanent error" of a key failing for a minute beside one that had
// just failed.
func TestDiagnoseControllerSubsetsOwnDuration(t *testing.T) {
	c := api.Controller{Name: "controller", Active: true, Keys: 2, Counts: map[api.State]int{api.StateBackoff: 2}}
	groups := []api.ErrorGroup{
		{Controller: c.Name, Class: api.ClassPermanent, Count: 1, FirstSeen: diagNow, LastSeen: diagNow,
			Message: `persistentvolumes "pvc-d0c5" is forbidden: ValidatingAdmissionPolicy denied`, Examples: []string{"d0c5"}},
		{Controller: c.Name, Class: api.ClassUnknown, Count: 1, FirstSeen: diagNow.Add(-70 * time.Second), LastSeen: diagNow,
			Message: `rpc error: code = ResourceExhausted desc = insufficient free space`, Examples: []string{"72a0"}},
	}
	d := explain.DiagnoseController(c, nil, groups, diagNow)
	if want := "2 keys failing, 1 of them for 0s on a permanent error: "; !strings.HasPrefix(d.Summary, want) {
		t.Errorf("Summary = %q; want it to begin %q: the 0s is the quoted error's key's, not the 2 keys'", d.Summary, want)
	}
}
