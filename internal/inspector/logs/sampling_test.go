package logs

import (
	"fmt"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestErrorRate(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		lines int
		every time.Duration
		want  time.Time
	}{
		{"99 lines in a second", api.SampledLines - 1, time.Millisecond, time.Time{}},
		{"100 lines in a second", api.SampledLines, time.Millisecond, t0},
		{"100 lines over two seconds", api.SampledLines, 20 * time.Millisecond, time.Time{}},
		{"a slow start, then a burst", 3 * api.SampledLines, 0, t0.Add(time.Duration(api.SampledLines) * time.Second)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r errorRate
			at := t0
			for i := range tt.lines {
				r.add(at)
				switch {
				case tt.every > 0:
					at = at.Add(tt.every)
				case i < api.SampledLines:
					at = at.Add(time.Second) // one line a second
				default:
					at = at.Add(time.Millisecond)
				}
			}
			if !r.reached.Equal(tt.want) {
				t.Errorf("reached = %v, want %v", r.reached, tt.want)
			}
		})
	}
}

// TestSampledLogIsFlagged runs a real controller-runtime controller whose
// production zap logger drops lines, and checks that the store says its
// counts may be low; with every line logged (V(5)), it says nothing.
func TestSampledLogIsFlagged(t *testing.T) {
	const keys = 3 * api.SampledLines
	for _, verbose := range []bool{false, true} {
		t.Run(fmt.Sprintf("verbose=%v", verbose), func(t *testing.T) {
			rc := startReal(t, formats[0], verbose, false, func(string, int) (reconcile.Result, error) {
				return reconcile.Result{}, reconcile.TerminalError(errRefused) // one line per key, no retries
			})
			for i := range keys {
				rc.send(fmt.Sprintf("default/w%d", i))
			}
			rc.waitCalls(keys)
			lines := rc.buf.lines()
			if verbose {
				// Every error is logged, after its reconcile returns.
				lines = rc.waitLines("every error", func(l []string) bool { return countLines(l, msgError) == keys })
			}
			logged := countLines(lines, msgError)
			s := NewStore(Options{})
			for _, l := range lines {
				if r, ok := Parse([]byte(l), time.Now()); ok {
					s.Add(r)
				}
			}
			st := s.Stats()
			cs := s.Controllers().Controllers
			if len(cs) != 1 {
				t.Fatalf("%d controllers, want 1", len(cs))
			}
			if verbose {
				if logged != keys || !st.SampledAt.IsZero() || !cs[0].LogSampledAt.IsZero() {
					t.Errorf("verbose: %d of %d errors logged, sampledAt %v / %v; want all, and none", logged, keys, st.SampledAt, cs[0].LogSampledAt)
				}
				return
			}
			if logged >= keys {
				t.Fatalf("all %d errors were logged: the logger did not sample, the test proves nothing", keys)
			}
			if st.SampledAt.IsZero() || !cs[0].LogSampledAt.Equal(st.SampledAt) {
				t.Errorf("%d of %d errors logged, sampledAt %v, controller's %v; want both set and equal",
					logged, keys, st.SampledAt, cs[0].LogSampledAt)
			}
		})
	}
}

// TestSampledOnlyForZap: only zap's JSON can have dropped lines. Each line
// is verbatim from a public report: logrus' JSON (Argo CD, "time" and
// "msg") never samples; zap's ("ts", Karpenter after moving to
// controller-runtime's logger) may.
func TestSampledOnlyForZap(t *testing.T) {
	for _, tt := range []struct {
		source, line string
		sampled      bool
	}{
		{"argoproj/argo-cd#14184", `{"applicationset":{"Namespace":"argocd","Name":"dev-appset"},"level":"error","msg":"validation error found during application validation: application references project my-project which does not exist","time":"2023-06-23T11:00:52Z"}`, false},
		{"kubernetes-sigs/karpenter#1050", `{"level":"info","ts":"2024-03-14T10:13:26Z","logger":"controller","msg":"discovered karpenter version","version":"unspecified"}`, true},
	} {
		var f fields
		if !parseJSON([]byte(tt.line), &f) {
			t.Fatalf("%s: not read as JSON", tt.source)
		}
		if got := sampledJSON(&f); got != tt.sampled {
			t.Errorf("%s: sampled = %v, want %v", tt.source, got, tt.sampled)
		}
	}
}
