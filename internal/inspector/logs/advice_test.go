package logs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestAdviceFollowsTheDialect (issue #30 item 4): what a key read from a
// log is advised comes from its dialect's data. cert-manager's and
// prometheus-operator's lines read no success, so their keys are told of
// no level — not controller-runtime's --zap-log-level=5, not V(5), not
// klog's -v — and a single failure is not said to be "not consecutive";
// controller-runtime's keys are told its level for the logger that wrote
// the log (zap's flag, klog's -v). Read from the real fixtures, as
// describe explains them, with the clock past every retry so that the
// unknown state's advice is written too.
func TestAdviceFollowsTheDialect(t *testing.T) {
	for _, tt := range []struct {
		file string
		how  string // the list source's SuccessesHow
		ref  time.Time
	}{
		{file: "cert-manager-3414.log", ref: time.Date(2020, 10, 27, 0, 0, 0, 0, time.UTC)},
		{file: "cert-manager-4437.log", ref: time.Date(2021, 9, 8, 0, 0, 0, 0, time.UTC)},
		{file: "cert-manager-3772.log", ref: time.Date(2021, 3, 16, 0, 0, 0, 0, time.UTC)},
		{file: "prometheus-operator-488.log", ref: time.Date(2017, 7, 21, 0, 0, 0, 0, time.UTC)},
		{file: "prometheus-operator-3327.log", ref: time.Date(2020, 7, 1, 0, 0, 0, 0, time.UTC)},
		{file: "prometheus-operator-8312.log", ref: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)},
		// controller-runtime on klog text, and on zap JSON.
		{file: "rancher-turtles-2321.log", how: "-v=5", ref: time.Date(2026, 4, 24, 0, 0, 0, 0, time.UTC)},
		{file: "kubeflow-notebooks-62.log", how: "--zap-log-level=5", ref: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata/wild", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(tt.ref), Live: true})
			if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
				t.Fatal(err)
			}
			cl := s.Controllers()
			if len(cl.Controllers) == 0 {
				t.Fatal("no controller read: the test needs the fixture's keys")
			}
			for _, c := range cl.Controllers {
				if cl.Source.SuccessesHow != tt.how {
					t.Errorf("%s: successes how = %q, want %q", c.Name, cl.Source.SuccessesHow, tt.how)
				}
				_, keys := s.views(c.Name)
				for _, k := range keys {
					d, err := s.Key(c.Name, k.Key)
					if err != nil {
						t.Fatal(err)
					}
					// A day after the log: every retry is past, the key unknown.
					for _, now := range []time.Time{cl.ServerTime, cl.ServerTime.Add(24 * time.Hour)} {
						k := d.Key
						if now.After(cl.ServerTime) {
							k.State = api.StateUnknown
						}
						text := explain.Explain(explain.Input{Key: k, Controller: &c, Now: now}).String()
						checkAdvice(t, c.Name+" "+k.Key, text, tt.how, k.Failures)
					}
				}
			}
		})
	}
}

func checkAdvice(t *testing.T, id, text, how string, failures int) {
	t.Helper()
	if how == "" {
		for _, not := range []string{"zap-log-level", "V(5)", "-v=", "controller-runtime", "default verbosity"} {
			if strings.Contains(text, not) {
				t.Errorf("%s: advice says %q, of a project whose dialect advises no level:\n%s", id, not, text)
			}
		}
		if !strings.Contains(text, "instrument") && strings.Contains(text, "success") {
			t.Errorf("%s: speaks of successes without saying how to see them:\n%s", id, text)
		}
	} else if strings.Contains(text, "Run the controller at") && !strings.Contains(text, "Run the controller at "+how) {
		t.Errorf("%s: advice names another level than %s:\n%s", id, how, text)
	}
	if failures == 1 && strings.Contains(text, "may not be consecutive") {
		t.Errorf("%s: one failure said to be not consecutive:\n%s", id, text)
	}
}
