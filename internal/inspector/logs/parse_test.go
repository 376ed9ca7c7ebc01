package logs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// summary is what a test compares of a Record.
func summary(r Record) string {
	s := fmt.Sprintf("%s %s [%s/%s]", whatName(r.What), r.Controller, r.Group, r.Kind)
	switch r.What {
	case ErrorLine:
		s += fmt.Sprintf(" error=%q terminal=%v", r.Error, r.Terminal)
	case RequeueAfterLine:
		s += fmt.Sprintf(" after=%v", r.RequeueAfter)
	}
	return s
}

func whatName(w What) string {
	return [...]string{"?", "error", "start", "success", "requeue-after", "requeue", "queue"}[w]
}

// TestParseRealController parses what real controller-runtime v0.25
// controllers log, in every logger format, as built by hand and by the
// builder, at the default verbosity and at V(5).
func TestParseRealController(t *testing.T) {
	transient := fmt.Sprintf("error=%q terminal=false", errRefused.Error())
	terminal := fmt.Sprintf("error=%q terminal=true", "terminal error: spec.size: Invalid value: -1")
	for _, f := range formats {
		for _, forBuilder := range []bool{false, true} {
			for _, verbose := range []bool{false, true} {
				name := fmt.Sprintf("%s/builder=%v/v5=%v", f.name, forBuilder, verbose)
				t.Run(name, func(t *testing.T) {
					kind := ""
					if forBuilder {
						kind = "ConfigMap" // core group: ""
					}
					head := func(what string) string { return fmt.Sprintf("%s widget [/%s]", what, kind) }
					want := map[string][]string{"default/w1": {
						head("error") + " " + transient, head("error") + " " + transient, head("error") + " " + terminal,
					}}
					if verbose {
						w1 := want["default/w1"]
						want["default/w1"] = []string{head("start"), w1[0], head("start"), w1[1], head("start"), w1[2]}
						want["default/w2"] = []string{head("start"), head("success")}
						want["default/w3"] = []string{head("start"), head("requeue-after") + " after=30s"}
					}
					start := time.Now()
					lines := runScenario(t, f, verbose, forBuilder)
					end := time.Now()

					got := map[string][]string{}
					for _, l := range lines {
						r, ok := Parse([]byte(l), end)
						if !ok {
							continue
						}
						// RFC 3339 without fractions has whole seconds.
						if r.At.Before(start.Truncate(time.Second)) || r.At.After(end) {
							t.Errorf("line %q: at = %v, want within [%v, %v]", l, r.At, start, end)
						}
						got[r.Key()] = append(got[r.Key()], summary(r))
					}
					for key, w := range want {
						if g := got[key]; !slices.Equal(g, w) {
							t.Errorf("%s:\n got  %s\n want %s\nlog:\n%s", key, strings.Join(g, "\n      "), strings.Join(w, "\n      "), strings.Join(lines, "\n"))
						}
					}
					for key := range got {
						if _, ok := want[key]; !ok {
							t.Errorf("unexpected key %q: %v", key, got[key])
						}
					}
				})
			}
		}
	}
}

// TestParseOlderReleases reads the shapes controller-runtime logged before
// v0.11, copied from published logs: v0.5-v0.6 logged the key as `request`
// with the controller as a field; v0.7-v0.10 logged `reconciler group` and
// `reconciler kind`, with the controller's name in the logger's name.
func TestParseOlderReleases(t *testing.T) {
	ref := time.Date(2022, 6, 7, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, line string
		want       Record
	}{
		{
			name: "v0.6 console, request",
			line: "2021-04-01T11:27:59.081Z\tERROR\tcontroller-runtime.controller\tReconciler error\t" +
				`{"controller": "windowsmachine-controller", "request": "openshift-machine-api/win-hx4pn", "error": "failed to configure Windows VM: timed out waiting for the condition"}`,
			want: Record{What: ErrorLine, At: time.Date(2021, 4, 1, 11, 27, 59, 81e6, time.UTC), Controller: "windowsmachine-controller",
				Namespace: "openshift-machine-api", Name: "win-hx4pn", Error: "failed to configure Windows VM: timed out waiting for the condition"},
		},
		{
			name: "v0.6 JSON, epoch, request",
			line: `{"level":"error","ts":1617276479.081,"logger":"controller-runtime.controller","msg":"Reconciler error","controller":"foo","request":"default/bar","error":"boom"}`,
			want: Record{What: ErrorLine, At: time.Unix(1617276479, 81e6).UTC(), Controller: "foo", Namespace: "default", Name: "bar", Error: "boom", Sampled: true},
		},
		{
			name: "v0.10 console, reconciler kind, controller in the logger name",
			line: "2021-11-20T09:10:59.042Z\tERROR\tcontroller.redis\tReconciler error\t" +
				`{"reconciler group": "myapp.tangx.in", "reconciler kind": "Redis", "name": "my-op-redis", "namespace": "default", "error": "pods is forbidden: User \"system:serviceaccount:x:y\" cannot create resource \"pods\""}`,
			want: Record{What: ErrorLine, At: time.Date(2021, 11, 20, 9, 10, 59, 42e6, time.UTC), Controller: "redis", Group: "myapp.tangx.in", Kind: "Redis",
				Namespace: "default", Name: "my-op-redis", Error: `pods is forbidden: User "system:serviceaccount:x:y" cannot create resource "pods"`},
		},
		{
			name: "v0.8 console, epoch, manager logger name",
			line: "1.6523912325494506e+09\tERROR\tcontroller-runtime.manager.controller.applicationset\tReconciler error\t" +
				`{"reconciler group": "argoproj.io", "reconciler kind": "ApplicationSet", "name": "acm-appsets", "namespace": "openshift-gitops", "error": "no clusterDecisionResources found"}`,
			want: Record{What: ErrorLine, At: epoch([]byte("1.6523912325494506e+09")), Controller: "applicationset", Group: "argoproj.io", Kind: "ApplicationSet",
				Namespace: "openshift-gitops", Name: "acm-appsets", Error: "no clusterDecisionResources found"},
		},
		{
			name: "v0.19 console with caller, no kind (custom LogConstructor)",
			line: "2024-11-28T16:41:50.253725505Z\tERROR\tcontroller/controller.go:316\tReconciler error\t" +
				`{"controller": "v1_pod", "namespace": "group/sts-e2e", "name": "sts-18b6e", "reconcileID": "d17d280a", "error": "admission webhook denied the request"}`,
			want: Record{What: ErrorLine, At: time.Date(2024, 11, 28, 16, 41, 50, 253725505, time.UTC), Controller: "v1_pod",
				Namespace: "group/sts-e2e", Name: "sts-18b6e", ReconcileID: "d17d280a", Error: "admission webhook denied the request"},
		},
		{
			name: "console error quoting another message",
			line: "2026-11-30T08:24:33Z\tERROR\tReconciler error\t" +
				`{"controller": "w", "namespace": "a", "name": "b", "error": "Reconcile done, requeueing after 5s never came"}`,
			want: Record{What: ErrorLine, At: time.Date(2026, 11, 30, 8, 24, 33, 0, time.UTC), Controller: "w", Namespace: "a", Name: "b",
				Error: "Reconcile done, requeueing after 5s never came"},
		},
		{
			name: "kubectl logs --prefix --timestamps before a JSON line",
			line: `[pod/ctrl-0/manager] 2022-06-06T10:00:00.123456789Z {"level":"error","ts":"2022-06-06T10:00:00Z","msg":"Reconciler error","controller":"w","namespace":"","name":"node-1","error":"terminal error: gone"}`,
			want: Record{What: ErrorLine, At: time.Date(2022, 6, 6, 10, 0, 0, 123456789, time.UTC), Controller: "w", Name: "node-1", Error: "terminal error: gone", Terminal: true, Sampled: true},
		},
		{
			name: "klog, December line read in January",
			line: `E1231 23:59:59.500000       1 controller.go:316] "Reconciler error" err="x" controller="c" object="ns/o" reconcileID="r"`,
			want: Record{What: ErrorLine, At: time.Date(2021, 12, 31, 23, 59, 59, 5e8, time.UTC), Controller: "c", Namespace: "ns", Name: "o", ReconcileID: "r", Error: "x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ref
			if strings.HasPrefix(tt.name, "klog") {
				r = time.Date(2022, 1, 2, 0, 0, 0, 0, time.UTC)
			}
			got, ok := Parse([]byte(tt.line), r)
			if !ok {
				t.Fatalf("Parse(%q) not ok", tt.line)
			}
			if !got.At.Equal(tt.want.At) {
				t.Errorf("at = %v, want %v", got.At, tt.want.At)
			}
			got.At = tt.want.At
			wantDialect := "controller-runtime (zap console)"
			switch {
			case strings.Contains(tt.name, "JSON"):
				wantDialect = "controller-runtime (JSON)"
			case strings.HasPrefix(tt.name, "klog"):
				wantDialect = "controller-runtime (klog text)"
			}
			if got.Dialect != wantDialect {
				t.Errorf("dialect = %q, want %q", got.Dialect, wantDialect)
			}
			got.Dialect = ""
			if want := strings.HasPrefix(tt.name, "klog") && !strings.Contains(tt.line, "Z I"); got.Yearless != want {
				t.Errorf("yearless = %v, want %v (a klog header has no year)", got.Yearless, want)
			}
			if got.Message != msgError {
				t.Errorf("message = %q, want %q", got.Message, msgError)
			}
			got.Yearless, got.Message = false, ""
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestParseRejects lists lines that are not records.
func TestParseRejects(t *testing.T) {
	for _, line := range []string{
		"",
		"Reconciler error",
		`{"msg":"Reconciler error","controller":"c"}`,           // no key
		`{"msg":"Reconciler error","namespace":"a","name":"b"}`, // no controller
		`{"msg":"Reconciling something else","controller":"c","name":"b"}`,
		`{"msg":"Reconcile done, requeueing after soon","controller":"c","name":"b"}`,
		`{"msg":"Reconciler error","controller":"c","name":"b"`, // cut short
		"2021-04-01T11:27:59.081Z\tINFO\tReconciler error",      // no context
		`E1231 23:59:59.500000       1 controller.go:316] "Reconciler error err="x"`,
		"\tsigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller).reconcileHandler", // a stack trace line
	} {
		if r, ok := Parse([]byte(line), time.Now()); ok {
			t.Errorf("Parse(%q) = %+v, want not a record", line, r)
		}
	}
}

// FuzzParse checks that no line makes Parse panic, and that what it accepts
// has a controller and a key (or queue items).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"level":"error","ts":1617276479.081,"msg":"Reconciler error","controller":"foo","request":"default/bar","error":"b\u00e9\"x"}`,
		"2021-04-01T11:27:59.081Z\tERROR\tcontroller.redis\tReconciler error\t{\"name\": \"a\", \"namespace\": \"b\", \"error\": \"x\"}",
		`E1130 08:24:34.270844   10688 controller.go:497] "Reconciler error" err="a \"b\"" controller="widget" object="default/w1" namespace="default" name="w1"`,
		`I1130 08:24:44.271890   10688 priorityqueue.go:541] "workqueue_items" controller="widget" items=[{"key":{"Namespace":"default","Name":"w1"},"addedCounter":6,"priority":0,"readyAt":"2026-11-30T08:25:04.571851734Z"}]`,
		`{"level":"Level(-5)","ts":"2026-11-30T08:24:55Z","msg":"workqueue_items","controller":"widget","items":[{"key":{"Namespace":"default","Name":"w1"},"addedCounter":6,"priority":0,"readyAt":"2026-11-30T08:25:15.787239403Z"}]}`,
		`{"msg":"Reconcile done, requeueing after 1m30s","controller":"c","ConfigMap":{"name":"x","namespace":"y"},"ts":"\ud83d\ude00"}`,
		`E0811 16:54:30.919241       8 controller.go:248] controller-runtime/controller "msg"="Reconciler error" "error"="a\nb" "controller"="azuremachine" "request"={"Namespace":"default","Name":"x"}`,
		`I0614 08:25:43.390885       1 controller.go:158] cert-manager/controller/certificates-key-manager "msg"="re-queuing item due to error processing" "error"="x" "key"="default/example-com"`,
		`{"level":"error","ts":"2024-02-12T05:55:53.572Z","msg":"Reconciliation failed after 10.8s, next try in 30m0s","controller":"kustomization","namespace":"flux-system","name":"x","error":"e"}`,
		`time=2024-03-01T10:00:00.000Z level=ERROR msg="Reconciler error" controller=widget namespace=default name=w1 err="connection refused"`,
		`ERRO[0012] Reconciler error                              controller=foo error="boom" name=bar namespace=baz`,
		`Jul 26 12:42:27 host kube-controller-manager[1]: E0726 12:42:27.615754   1 deployment_controller.go:400] Error syncing deployment default/a: boom`,
		`pod-1 manager 2024-01-01T00:00:00Z stderr F E0720 01:25:02.269265       1 operator.go:526] Sync "monitoring/k8s" failed: x`,
		`E0804 06:17:42.597049       1 controller.go:321] error syncing '{ns/x add}': y, requeuing`,
		// Objects cut inside a string, and malformed ones with no member
		// before the open value (the gzip fuzz target's panic, in cutString).
		`{"level":"error","msg":"Reconciler error","controller":"c","namespace":"d","name":"n","error":"cut here`,
		`{"`, `{"a`, `{" "x`, `{:"x`, `{"k" x:"y`, `{x"`, `{"k":1 "v`,
	} {
		f.Add(s)
	}
	ref := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, line string) {
		r, ok := Parse([]byte(line), ref)
		if !ok {
			return
		}
		if r.Controller == "" {
			t.Errorf("Parse(%q): accepted with no controller", line)
		}
		if r.What != QueueLine && r.Name == "" {
			t.Errorf("Parse(%q): accepted with no key", line)
		}
	})
}
