package logs

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestInlineCode: a record quoted as inline code in a sentence is read as
// the record; a line that opens with its own format, or whose inline code
// is a word or holds no record, is read as it is.
func TestInlineCode(t *testing.T) {
	for _, tt := range []struct{ name, line, want string }{
		{"a zap console record in a sentence (batch13/1302)",
			"the training operator got errors: `2022-02-28T09:49:55.707Z\tERROR\tReconcile PyTorchJob error\t{\"pytorchjob\": \"default/x\"}`. <br>",
			"2022-02-28T09:49:55.707Z\tERROR\tReconcile PyTorchJob error\t{\"pytorchjob\": \"default/x\"}"},
		{"a klog record in a sentence",
			"it logs `E0919 11:18:31.755351       1 controller.go:219] Sync failed` again and again",
			"E0919 11:18:31.755351       1 controller.go:219] Sync failed"},
		{"a klog line quoting a flag (batch13/1307)",
			"W1007 22:13:52.013753       1 metrics.go:142] metrics endpoint will not be started because `metrics-address` was not specified.", ""},
		{"prose quoting a word", "set `--zap-log-level=5` and look again", ""},
		{"prose quoting a command", "run `kubectl logs -n kube-system deploy/x` first", ""},
		{"no closing backtick (a record cut by the paste, batch13/1305)",
			"`{\"level\":\"error\",\"msg\":\"route \\\"default/x\\\" in work queue no longer exists\",\"stacktrace\":\"github.com/kna", ""},
	} {
		want := tt.want
		if want == "" {
			want = tt.line
		}
		if got := string(inlineCode([]byte(tt.line))); got != want {
			t.Errorf("%s: inlineCode = %q, want %q", tt.name, got, want)
		}
	}
}

// TestInlineCodeRead: batch13/1302's sentence is read as the training
// operator's failure of its key, by the work-queue verb and the error
// word that follows it ("Reconcile PyTorchJob error").
func TestInlineCodeRead(t *testing.T) {
	log, err := os.ReadFile("testdata/batch13/1302-kubeflow-trainer-zap-console-line-inline-in-prose-reconcile-pytorchjob-error.log")
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), strings.NewReader(string(log))); err != nil {
		t.Fatal(err)
	}
	_, keys := s.views("")
	if len(keys) != 1 || keys[0].Key != "default/pytorch-tcp-dist-mnist" || keys[0].TotalFailures != 1 {
		t.Fatalf("keys %+v; want default/pytorch-tcp-dist-mnist failed once", keys)
	}
	if e := keys[0].LastError; e == nil || !strings.HasPrefix(e.Message, `PyTorchJob.kubeflow.org "pytorch-tcp-dist-mnist" is invalid`) {
		t.Errorf("last error %+v; want the error field's", e)
	}
	if !strings.Contains(keys[0].LogEvidence, `"Reconcile PyTorchJob error"`) {
		t.Errorf("evidence %q; want the words read", keys[0].LogEvidence)
	}
}

// TestVerbThenError: the failure phrase "VERB [KIND] error" — the work
// queue's verb, the error word after it — and not a noun's ("Reconciler
// error" is controller-runtime's line, its dialect's).
func TestVerbThenError(t *testing.T) {
	for msg, want := range map[string]string{
		"Reconcile PyTorchJob error":                 "Reconcile PyTorchJob error",
		"rollout syncHandler error: found '<'":       "syncHandler error",
		"sync error for ns/x: conflict":              "sync error",
		"Reconciler error":                           "",
		"Processing finished without errors in 12ms": "",
	} {
		got := ""
		if at := failPhrase.FindStringIndex(msg); at != nil {
			got = msg[at[0]:at[1]]
		}
		if got != want {
			t.Errorf("%q: failure phrase %q, want %q", msg, got, want)
		}
	}
}
