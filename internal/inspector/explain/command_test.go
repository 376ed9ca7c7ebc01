package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// outageDiagnosis is a controller's diagnosis whose finding suggests a
// command: 12 keys backing off on the same transient error.
func outageDiagnosis(t *testing.T) explain.ControllerDiagnosis {
	t.Helper()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c := api.Controller{Name: "outage", Active: true, Counts: map[api.State]int{api.StateBackoff: 12}}
	groups := []api.ErrorGroup{{Controller: "outage", Message: "dial tcp 10.0.0.1:5432: connect: connection refused",
		Class: api.ClassTransient, Count: 12, FirstSeen: now.Add(-time.Minute), LastSeen: now}}
	d := explain.DiagnoseController(c, nil, groups, now)
	for _, f := range d.Findings {
		if f.Command != nil {
			return d
		}
	}
	t.Fatalf("the outage diagnosis suggests no command: %+v", d)
	return d
}

// TestCommandsRenderedForTheSession: a suggested command is a value; For
// renders it with how the user attached right after the verb, the text
// around it as it was, and the diagnosis given untouched.
func TestCommandsRenderedForTheSession(t *testing.T) {
	d := outageDiagnosis(t)
	bare := "`kubectl backoff forget --controller outage --all --state backoff --requeue --spread 1m`"
	attached := "`kubectl backoff forget deployment/ctrl -n flux-system --controller outage --all --state backoff --requeue --spread 1m`"
	var before string
	for _, f := range d.Findings {
		if f.Command != nil {
			before = f.Message
		}
	}
	if !strings.Contains(before, bare) {
		t.Fatalf("bare: %q; want it to say %s", before, bare)
	}
	got := d.For(explain.Session{Attach: "deployment/ctrl -n flux-system"})
	for i, f := range got.Findings {
		if f.Command == nil {
			if f.Message != d.Findings[i].Message {
				t.Errorf("For changed a finding without a command: %q", f.Message)
			}
			continue
		}
		if want := strings.Replace(before, bare, attached, 1); f.Message != want {
			t.Errorf("For: %q\nwant %q", f.Message, want)
		}
	}
	if got.Summary != d.Summary {
		t.Errorf("For changed the summary: %q", got.Summary)
	}
	for _, f := range d.Findings {
		if strings.Contains(f.Message, "flux-system") {
			t.Error("For changed the diagnosis it was given")
		}
	}
}

// TestLogKeyKickNamesTheTarget: a log key's retry-now is kick through the
// workload whose log was read, named once the caller says it; TARGET
// otherwise. It is not the TUI's r (IsRetryNow), which reaches the queue.
func TestLogKeyKickNamesTheTarget(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	obs := int64(2)
	k := api.Key{Key: "team-a/web", Source: api.SourceLogs, State: api.StateBackoff, Failures: 3, NextRetryAt: now.Add(time.Minute)}
	d := explain.Explain(explain.Input{Key: k, Now: now,
		Object: &objstatus.Object{Name: "web", Verdict: objstatus.Verdict{Generation: 3, ObservedGeneration: &obs}}})
	kick := func(d explain.Diagnosis) explain.Finding {
		for _, f := range d.Findings {
			if f.Command != nil && f.Command.Verb == "kick" {
				return f
			}
		}
		t.Fatalf("no kick suggested: %+v", d.Findings)
		return explain.Finding{}
	}
	for _, tt := range []struct{ target, want string }{
		{"", "`kubectl backoff kick TARGET --from-logs team-a/web`"},
		{"deployment/ctrl -n team-a", "`kubectl backoff kick deployment/ctrl -n team-a --from-logs team-a/web`"},
	} {
		if got := kick(d.For(explain.Session{Target: tt.target})); !strings.Contains(got.Message, tt.want) {
			t.Errorf("Target %q: %q; want it to say %s", tt.target, got.Message, tt.want)
		}
	}
	if f := kick(d); f.Command.IsRetryNow() || f.Saying("r") == f.Message {
		t.Errorf("kick taken for the queue's retry: %+v", f)
	}
}

// TestRetryNowSaidAnotherWay: the TUI says its own key where a terminal
// would run forget --requeue, and keeps the sentence around it.
func TestRetryNowSaidAnotherWay(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	obs := int64(2)
	k := api.Key{Key: "team-a/web", State: api.StateBackoff, Failures: 3, NextRetryAt: now.Add(time.Minute)}
	d := explain.Explain(explain.Input{Key: k, Now: now,
		Object: &objstatus.Object{Name: "web", Verdict: objstatus.Verdict{Generation: 3, ObservedGeneration: &obs}}})
	for _, f := range d.Findings {
		if f.Code != explain.FindingUnobserved {
			continue
		}
		if !f.Command.IsRetryNow() {
			t.Fatalf("retry now is %+v", f.Command)
		}
		want := strings.Replace(f.Message, "`kubectl backoff forget --requeue`", "r", 1)
		if got := f.Saying("r"); got != want || got == f.Message {
			t.Errorf("Saying(r): %q\nwant %q", got, want)
		}
		return
	}
	t.Fatal("no unobserved-edit finding")
}

// TestKeySessionNamesKeyAndController: a key's diagnosis renders its
// commands for the key and its controller after how the user attached,
// each quoted for the shell; the flags are data, spelt only by Render.
func TestKeySessionNamesKeyAndController(t *testing.T) {
	c := explain.Command{Verb: "forget", Flags: []explain.Flag{{Name: "requeue"}}}
	if !c.IsRetryNow() {
		t.Errorf("%+v is forget --requeue, the queue's retry", c)
	}
	got := c.Render(explain.Session{Attach: "--addr 127.0.0.1:8082", Key: "team a/web", Controller: "widget"})
	if want := "kubectl backoff forget --addr 127.0.0.1:8082 'team a/web' --controller widget --requeue"; got != want {
		t.Errorf("Render = %s\nwant     %s", got, want)
	}
	if got, want := (explain.Flag{Name: "spread", Value: "1m"}).String(), "--spread 1m"; got != want {
		t.Errorf("Flag.String = %q, want %q", got, want)
	}
}
