package ui

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// The fixed dataset of the golden tests: the server's clock stands at t0,
// and the local clock never moves, so every countdown is exact.
var t0 = time.Date(2025, 6, 1, 10, 6, 25, 0, time.UTC)

func fixedClock() time.Time { return t0 }

func dur(d time.Duration) metav1.Duration { return metav1.Duration{Duration: d} }

func fixedOverview() *inspector.Overview {
	tokens := 0.4
	depth := 12
	return &inspector.Overview{
		ServerTime: t0,
		Replicas: []inspector.Replica{{
			Endpoint: "demo/ctrl-0", ServerTime: t0,
			Conn: cluster.ConnState{Phase: cluster.PhaseConnected, Pod: "demo/ctrl-0", LocalAddr: "127.0.0.1:40123"},
		}},
		Controllers: []api.Controller{
			{
				Name: "naive", Active: true, Keys: 30,
				Kind:   &api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
				Counts: map[api.State]int{"backoff": 30},
				Limiter: api.Limiter{Description: "item-exponential 5ms..16m40s", Components: []api.LimiterComponent{
					{Name: "item-exponential", BaseDelay: dur(5 * time.Millisecond), MaxDelay: dur(1000 * time.Second)}}},
				Capabilities: api.Capabilities{CanForget: true, CanRequeue: true},
			},
			{
				Name: "outage", Active: true, Keys: 842 + 58 + 12 + 4 + 84, QueueDepth: &depth,
				Kind:   &api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
				Counts: map[api.State]int{"backoff": 842, "queued": 12, "running": 4, "idle": 84, "scheduled": 58},
				// A herd of 40 at +12s, as the endpoint counts it.
				Forecast: fixedForecast(), Pending: 900,
				Limiter: api.Limiter{Description: "max(item-exponential 5ms..16m40s, bucket 10qps/100)", Components: []api.LimiterComponent{
					{Name: "item-exponential", BaseDelay: dur(5 * time.Millisecond), MaxDelay: dur(1000 * time.Second)},
					{Name: "bucket", QPS: 10, Burst: 100, Tokens: &tokens}}},
				Capabilities: api.Capabilities{CanForget: true, CanRequeue: true},
			},
			{
				Name: "wellbehaved", Active: true, Keys: 20,
				Counts: map[api.State]int{"failed": 20},
				Limiter: api.Limiter{Description: "item-exponential 5ms..16m40s", Components: []api.LimiterComponent{
					{Name: "item-exponential", BaseDelay: dur(5 * time.Millisecond), MaxDelay: dur(1000 * time.Second)}}},
				Capabilities: api.Capabilities{CanForget: true, CanRequeue: true},
			},
		},
	}
}

const refused = "sync inventory: dial tcp 10.0.0.7:443: connect: connection refused"

// fixedKey is one key of the dataset.
func fixedKey(ctl, key string, st api.State, fails int, next time.Duration, delay time.Duration, src, errMsg string) inspector.PodKey {
	k := api.Key{Controller: ctl, Key: key, State: st, Failures: fails, TotalFailures: fails, Reconciles: fails + 1, DelaySource: src}
	if next != 0 {
		k.NextRetryAt = t0.Add(next)
	}
	k.Delay = dur(delay)
	if errMsg != "" {
		k.LastError = &api.ErrorRecord{Message: errMsg, At: t0.Add(-delay + next)}
		k.SameErrorCount = fails
		k.FirstFailureAt = t0.Add(-17 * time.Minute)
	}
	if st == api.StateRunning {
		k.StartedAt = t0.Add(-3 * time.Second)
	}
	k.LastEventAt = t0.Add(-20 * time.Minute)
	return inspector.PodKey{Key: k}
}

func fixedPage(n int) *inspector.KeyList {
	all := []inspector.PodKey{
		fixedKey("outage", "demo/outage-00017", "queued", 3, -2*time.Second, 40*time.Millisecond, "item-exponential", refused),
		fixedKey("outage", "demo/outage-00003", "backoff", 9, 1200*time.Millisecond, 2560*time.Millisecond, "item-exponential", refused),
		fixedKey("outage", "demo/outage-00042", "backoff", 7, 12*time.Second, 12*time.Second, "bucket", "sync inventory: dial tcp 10.0.0.9:443: connect: connection refused"),
		fixedKey("naive", "demo/naive-00001", "backoff", 17, 4*time.Minute+12*time.Second, 5*time.Minute+27*time.Second, "item-exponential", `spec.storageClass: required value: ConfigMap "naive-00001" has none`),
		fixedKey("outage", "demo/outage-00118", "scheduled", 0, 28*time.Second, 30*time.Second, "requeue-after", ""),
		fixedKey("outage", "demo/outage-00007", "running", 2, 0, 0, "", "503 Service Unavailable"),
		fixedKey("wellbehaved", "demo/wellbehaved-00002", "failed", 1, 0, 0, "", "terminal error: spec.storageClass is required"),
		fixedKey("outage", "demo/outage-00900", "idle", 0, 0, 0, "", ""),
	}
	for i := 0; len(all) < n; i++ {
		all = append(all, fixedKey("outage", fmt.Sprintf("demo/outage-%05d", 200+i), "backoff", 10, time.Duration(20+i)*time.Second, 5120*time.Millisecond, "item-exponential", refused))
	}
	return &inspector.KeyList{ServerTime: t0, Total: 1050, Matched: 1050, Items: all[:n]}
}

// fixedForecast is the outage controller's retries due per second: a herd of
// 40 at +12s.
func fixedForecast() []int {
	f := make([]int, api.ForecastSeconds)
	f[1], f[3], f[7], f[12], f[19], f[44] = 2, 4, 6, 40, 8, 4
	return f
}

func fixedDetail() *describe.Description {
	k := fixedKey("naive", "demo/naive-00001", "backoff", 17, 4*time.Minute+12*time.Second, 5*time.Minute+27*time.Second, "item-exponential", `spec.storageClass: required value: ConfigMap "naive-00001" has none`)
	at := t0.Add(-17 * time.Minute)
	var hist []api.Attempt
	for i := range 16 {
		d := 5 * time.Millisecond << (i + 1)
		hist = append(hist, api.Attempt{At: at, Outcome: "error", Delay: dur(d), Error: k.LastError.Message, Duration: dur(3 * time.Millisecond)})
		at = at.Add(d)
	}
	hist[0].Error = "get storage class: context deadline exceeded"
	k.SameErrorCount = len(hist) - 1 // the run the history shows, after hist[0]
	k.LastEventAt = t0.Add(-3 * time.Minute)
	k.LastReconcileAt = t0.Add(-5*time.Minute - 27*time.Second + 4*time.Minute + 12*time.Second)
	det := &inspector.PodKeyDetail{KeyDetail: api.KeyDetail{ServerTime: t0, Key: k.Key}}
	det.History = hist
	ov := fixedOverview()
	og := int64(2)
	obj := &objstatus.Object{
		Kind: "ConfigMap", Namespace: "demo", Name: "naive-00001",
		// What objstatus.Judge says of it: kstatus's generation check, first.
		Verdict: objstatus.Verdict{Status: objstatus.InProgress, KStatus: objstatus.InProgress, Generation: 3, ObservedGeneration: &og,
			Message:    "ConfigMap generation is 3, but latest observed generation is 2",
			Conditions: []objstatus.Condition{{Type: "Ready", Status: "False", Reason: "StorageClassMissing", Message: "spec.storageClass is not set", LastTransitionTime: t0.Add(-17 * time.Minute)}}},
		Events: []objstatus.Event{
			{Type: "Warning", Reason: "ReconcileError", Message: "spec.storageClass: required value", Count: 17, LastSeen: t0.Add(-73 * time.Second)},
			{Type: "Normal", Reason: "Updated", Message: "generation 3 applied by kubectl", Count: 1, LastSeen: t0.Add(-3 * time.Minute)},
		},
	}
	obj.SpecChange = &objstatus.Change{Manager: "kubectl-client-side-apply", Operation: "Update", Time: t0.Add(-3 * time.Minute)}
	d := &describe.Description{Key: det, Controller: ov.Controller("naive"), Object: obj}
	d.Diagnosis = explain.Explain(explain.Input{Key: det.Key, Controller: d.Controller, Object: obj, Now: t0})
	return d
}

// fixedGroupList is what v1/errors answers for the dataset: exact groups,
// largest first, their counts adding up to Matched.
func fixedGroupList() *api.ErrorGroupList {
	g := func(ctl, fp, msg, class string, n int, last time.Duration) api.ErrorGroup {
		return api.ErrorGroup{Controller: ctl, Fingerprint: fp, Message: msg, Class: class, Count: n,
			FirstSeen: t0.Add(-17 * time.Minute), LastSeen: t0.Add(-last), Examples: []string{"demo/" + ctl + "-00001"}}
	}
	return &api.ErrorGroupList{ServerTime: t0, Total: 1100, Matched: 10980 + 842 + 30 + 1, Groups: []api.ErrorGroup{
		g("outage", "sync inventory: 503 Service Unavailable", "sync inventory: 503 Service Unavailable", api.ClassTransient, 10980, time.Second),
		g("outage", "sync inventory: dial tcp …: connect: connection refused", refused, api.ClassTransient, 842, 2*time.Second),
		g("naive", `spec.storageClass: required value: ConfigMap "…" has none`, `spec.storageClass: required value: ConfigMap "naive-00001" has none`, api.ClassPermanent, 30, 73*time.Second),
		g("conflicts", `Operation cannot be fulfilled on configmaps "…": the object has been modified`, `Operation cannot be fulfilled on configmaps "conflicts-00001": the object has been modified`, "", 1, 4*time.Second),
	}}
}

// fixedGroups is the group view's answer, as groupsCmd returns it for seq 1.
func fixedGroups() view.GroupsFetchedMsg {
	return view.GroupsFetchedMsg{Seq: 1, List: fixedGroupList(), FetchedAt: t0}
}
