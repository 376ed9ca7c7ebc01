package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// A key the generic reader read is told the verbosity flag of the logger
// its own line shows, not the level the log's first advising dialect gave
// another controller: a klog controller beside a controller-runtime one
// was told "Run the controller at --zap-log-level=5". The lines are of the
// shapes the corpus's logs have (klog's header behind a pod prefix, zap's
// JSON and console encodings, logfmt); the log's advice is zap's in every
// case, as the mixed log's was.
func TestGenericKeyAdviceIsItsLinesLogger(t *testing.T) {
	for _, c := range []struct {
		name, line string
		want       []string
		not        []string
	}{
		{"klog", `[pod/ctl-0/manager] E1208 01:00:05.000000       1 controller.go:100] error syncing "team-b/raw": boom, requeuing`,
			[]string{"klog's", "-v=4"}, []string{"--zap-log-level", "V(5)"}},
		{"zap JSON", `{"level":"error","ts":1733619605.1,"msg":"failed to sync \"team-b/raw\": boom, will retry"}`,
			[]string{"zap's", "--zap-log-level=5"}, []string{"-v=", "V(5)"}},
		{"zap console", "2024-12-08T01:00:05.000Z\tERROR\tfailed to sync \"team-b/raw\": boom, will retry",
			[]string{"zap's", "--zap-log-level=5"}, []string{"-v=", "V(5)"}},
		{"logfmt", `time=2024-12-08T01:00:05Z level=error msg="failed to sync team-b/raw: boom, will retry"`,
			[]string{"--help", "lines naming this key without an error"}, []string{"-v=", "--zap-log-level", "V(5)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, st := range []api.State{api.StateBackoff, api.StateUnknown} {
				k := api.Key{Key: "team-b/raw", State: st, Failures: 3, TotalFailures: 3, Source: api.SourceLogs, Estimated: true,
					NextRetryAt: at(time.Second), Delay: dur(20 * time.Millisecond), DelaySource: api.SourceItemExponential, FirstFailureAt: at(-time.Second),
					LastError: &api.ErrorRecord{Message: "boom", At: at(-time.Millisecond)}, SameErrorCount: 3, LogLine: c.line,
					History: []api.Attempt{{At: at(-time.Second), Outcome: api.OutcomeError}, {At: at(-time.Second / 2), Outcome: api.OutcomeError}, {At: at(-time.Millisecond), Outcome: api.OutcomeError}}}
				if st == api.StateUnknown {
					k.NextRetryAt = at(-time.Minute)
				}
				src := &api.ListSource{Kind: api.SourceLogs, SuccessesHow: "--zap-log-level=5"}
				d := explain.Explain(explain.Input{Key: k, Source: src, Now: explainNow})
				got := d.Summary + "\n" + strings.Join(d.Details, "\n")
				for _, w := range c.want {
					if !strings.Contains(got, w) {
						t.Errorf("%s: does not say %q:\n%s", st, w, got)
					}
				}
				for _, w := range c.not {
					if strings.Contains(got, w) {
						t.Errorf("%s: says %q, another logger's:\n%s", st, w, got)
					}
				}
			}
		})
	}
	// A key a dialect read keeps its dialect's advice.
	k := api.Key{Key: "demo/a", State: api.StateBackoff, Failures: 3, TotalFailures: 3, Source: api.SourceLogs, Estimated: true,
		NextRetryAt: at(time.Second), LastError: &api.ErrorRecord{Message: "boom", At: at(-time.Millisecond)}}
	d := explain.Explain(explain.Input{Key: k, Source: &api.ListSource{Kind: api.SourceLogs, SuccessesHow: "--zap-log-level=5"}, Now: explainNow})
	if got := strings.Join(d.Details, "\n"); !strings.Contains(got, "Run the controller at --zap-log-level=5") {
		t.Errorf("a dialect's key lost its dialect's advice:\n%s", got)
	}
}
