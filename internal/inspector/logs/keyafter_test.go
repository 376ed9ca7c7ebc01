package logs

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// The two lines of one failed attempt of knative.dev/pkg's controller of
// 2020, as knative/serving#7340 pasted them (batch13/1304, the stack
// trace cut short here): the error without the key, then the key.
const (
	knativeKeylessError = `{"level":"error","ts":"2020-03-20T15:31:42.410Z","logger":"webhook","caller":"controller/controller.go:409","msg":"Reconcile error","commit":"804b3bb","error":"secret \"webhook-certs\" is missing \"ca-cert.pem\" key","stacktrace":"knative.dev/serving/vendor/knative.dev/pkg/controller.(*Impl).handleErr"}`
	knativeKeyLine      = `{"level":"info","ts":"2020-03-20T15:31:42.410Z","logger":"webhook","caller":"controller/controller.go:396","msg":"Reconcile failed. Time taken: 186.052µs.","commit":"804b3bb","knative.dev/traceid":"d9b325d9-b535-4bb7-867a-232611ed1f5f","knative.dev/key":"knative-serving/webhook-certs"}`
)

// readKeyAfter reads log into a fresh store, saying each line's reading
// into said.
func readKeyAfter(t *testing.T, log string, said *[]LineReading) *Store {
	t.Helper()
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		ExplainLines: func(lr LineReading) { *said = append(*said, lr) }})
	if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestKeyAfter: Knative's keyless "Reconcile error" takes the key of the
// handler's "Reconcile failed" line just after it, which is counted no
// more; the earlier "Reconcile failed" of another key, whose error line
// is not in the paste, is no failure; --explain-lines names the evidence.
func TestKeyAfter(t *testing.T) {
	log, err := os.ReadFile("testdata/batch13/1304-knative-serving-webhook-json-keyless-reconcile-error-then-keyed-reconcile-failed.log")
	if err != nil {
		t.Fatal(err)
	}
	var said []LineReading
	s := readKeyAfter(t, string(log), &said)
	if n := s.Len(); n != 1 {
		t.Fatalf("%d keys (controllers %v); want 1", n, s.names())
	}
	k, err := s.Key("webhook", "knative-serving/webhook-certs")
	if err != nil {
		t.Fatalf("%v; controllers %v", err, s.names())
	}
	if k.TotalFailures != 1 || k.LastError == nil || k.LastError.Message != `secret "webhook-certs" is missing "ca-cert.pem" key` {
		t.Errorf("%d failures, last error %+v; want 1, the keyless line's", k.TotalFailures, k.LastError)
	}
	if !strings.Contains(k.LogEvidence, "named by line 4 just after it") {
		t.Errorf("evidence %q; want it to name the line after", k.LogEvidence)
	}
	lines := map[int]LineReading{}
	for _, lr := range said {
		if _, twice := lines[lr.Line]; twice {
			t.Errorf("line %d read twice: %+v", lr.Line, lr)
		}
		lines[lr.Line] = lr
	}
	if lr := lines[3]; lr.Key != "knative-serving/webhook-certs" || !strings.Contains(lr.Why, "just after it") {
		t.Errorf("line 3 read as %+v; want the failure, its key from line 4", lr)
	}
	if lr := lines[4]; lr.Meaning != meaning(Record{What: KeyLine}) {
		t.Errorf("line 4 read as %+v; want the attempt's key line", lr)
	}
}

// TestKeyAfterNotGuessed: the keyless error goes to no key where the line
// after is not surely the end of the same attempt: another line between, another logger, an
// error of its own, words that do not say it failed, or a second apart.
func TestKeyAfterNotGuessed(t *testing.T) {
	for name, after := range map[string]string{
		"a line between": `{"level":"info","ts":"2020-03-20T15:31:42.410Z","logger":"webhook","msg":"Reconciling","knative.dev/key":"knative-serving/other"}
` + knativeKeyLine,
		"another logger":   strings.Replace(knativeKeyLine, `"logger":"webhook"`, `"logger":"controller"`, 1),
		"an error its own": strings.Replace(knativeKeyLine, `"commit"`, `"error":"conflict","commit"`, 1),
		"succeeded":        strings.Replace(knativeKeyLine, "Reconcile failed.", "Reconcile succeeded.", 1),
		"a second apart":   strings.Replace(knativeKeyLine, "15:31:42.410Z", "15:31:43.500Z", 1),
	} {
		var said []LineReading
		s := readKeyAfter(t, knativeKeylessError+"\n"+after+"\n", &said)
		_, keys := s.views("")
		for _, k := range keys {
			// A key line with an error of its own is its own failure
			// (the generic reader's); the keyless error is nobody's.
			if k.LastError != nil && strings.Contains(k.LastError.Message, "webhook-certs") {
				t.Errorf("%s: %s took the keyless line's error %q; want no key to", name, k.Key, k.LastError.Message)
			}
		}
	}
}
