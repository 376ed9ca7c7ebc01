package logs

import (
	"bytes"
	"strings"
	"testing"
)

// TestJavaHeader reads Java layouts' headers (javalayout.go) and leaves
// lines without a class name as they were.
func TestJavaHeader(t *testing.T) {
	for _, tt := range []struct {
		rest, msg, logger string
		severe            bool
	}{
		{"i.j.o.p.e.EventProcessor       [WARN ][ns/x] Uncaught error", "[ns/x] Uncaught error", "EventProcessor", true},
		{"ERROR [io.jav.ope.pro.eve.EventProcessor] (ReconcilerExecutor-c-977) Uncaught error", "Uncaught error", "EventProcessor", true},
		// Log4j's location (%l) for the logger, after a bracketed time and
		// level the format read (batch24/2403): the class is the logger.
		{"[io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher.handleExecution(ReconciliationDispatcher.java:56)] Error during event processing", "Error during event processing", "ReconciliationDispatcher", false},
		// No class name before the message: left as it was ("io.quarkus" is a
		// package; a thread before the class stops the header).
		{"[io.quarkus] (main) keycloak-operator started", "[io.quarkus] (main) keycloak-operator started", "", false},
		{"INFO  [main] o.s.b.StartupInfoLogger : Starting", "INFO  [main] o.s.b.StartupInfoLogger : Starting", "", false},
		{"controller.go:123 failed to sync ns/x: boom", "controller.go:123 failed to sync ns/x: boom", "", false},
		{"reconcile failed for ns/x", "reconcile failed for ns/x", "", false},
	} {
		var f fields
		got := string(javaHeader([]byte(tt.rest), &f))
		if got != tt.msg || f.logger != tt.logger || f.severe != tt.severe {
			t.Errorf("javaHeader(%q) = %q, logger %q, severe %v; want %q, %q, %v", tt.rest, got, f.logger, f.severe, tt.msg, tt.logger, tt.severe)
		}
	}
}

// TestExceptionJoined: a Java layout's record and its exception on the
// next line, behind a pod's name or not, are read as one line; frames and
// other lines are left alone.
func TestExceptionJoined(t *testing.T) {
	in := strings.Join([]string{
		"pod-7f95587856-cz8j7 2025-07-18 06:24:24,708 i.j.o.p.e.EventProcessor [WARN ][ns/x] Uncaught error - pending.",
		"pod-7f95587856-cz8j7 org.example.UpgradeFailureException: Latest checkpoint not addressable.",
		"pod-7f95587856-cz8j7     at org.example.Service.get(Service.java:569)",
		"2025-07-18 06:24:25,001 ERROR [o.e.Main] (main) boom",
		"java.lang.IllegalStateException: state",
		"plain text line",
		"java.lang.IllegalStateException: not after a record",
		// Log4j with a bracketed time (batch24/2403, JOSDK 4.0.1).
		"[2022-10-16 03:28:38.536][ERROR][io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher.handleExecution(ReconciliationDispatcher.java:56)] Error during event processing ExecutionScope{ resource id: ResourceID{name='mycrd', namespace='null'}, version: 10785} failed.",
		"io.fabric8.kubernetes.client.KubernetesClientException: namespace cannot be null",
		"\tat io.fabric8.kubernetes.client.dsl.internal.BaseOperation.inNamespace(BaseOperation.java:235) ~[kubernetes-client-6.1.1.jar:?]",
		// The same quoted in Markdown (the paste damage markdown-quote):
		// the exception's line is read out of its quote, as the record is.
		"> [2022-10-16 03:28:38.536][ERROR][io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher.handleExecution(ReconciliationDispatcher.java:56)] Error during event processing failed.",
		"> io.fabric8.kubernetes.client.KubernetesClientException: namespace cannot be null",
	}, "\n") + "\n"
	var j joiner
	var got []string
	lines := strings.SplitAfter(in, "\n")
	for i, l := range lines {
		if l == "" {
			continue
		}
		j.ahead = []byte(strings.Join(lines[i+1:], ""))
		j.release([]byte(l), func(b []byte) { got = append(got, string(bytes.TrimRight(b, "\n"))) })
		j.feed([]byte(l), func(b []byte) { got = append(got, string(bytes.TrimRight(b, "\n"))) })
	}
	j.flush(func(b []byte) { got = append(got, string(b)) })
	want := []string{
		"pod-7f95587856-cz8j7 2025-07-18 06:24:24,708 i.j.o.p.e.EventProcessor [WARN ][ns/x] Uncaught error - pending.: org.example.UpgradeFailureException: Latest checkpoint not addressable.",
		"pod-7f95587856-cz8j7     at org.example.Service.get(Service.java:569)",
		"2025-07-18 06:24:25,001 ERROR [o.e.Main] (main) boom: java.lang.IllegalStateException: state",
		"plain text line",
		"java.lang.IllegalStateException: not after a record",
		"[2022-10-16 03:28:38.536][ERROR][io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher.handleExecution(ReconciliationDispatcher.java:56)] Error during event processing ExecutionScope{ resource id: ResourceID{name='mycrd', namespace='null'}, version: 10785} failed.: io.fabric8.kubernetes.client.KubernetesClientException: namespace cannot be null",
		"\tat io.fabric8.kubernetes.client.dsl.internal.BaseOperation.inNamespace(BaseOperation.java:235) ~[kubernetes-client-6.1.1.jar:?]",
		"[2022-10-16 03:28:38.536][ERROR][io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher.handleExecution(ReconciliationDispatcher.java:56)] Error during event processing failed.: io.fabric8.kubernetes.client.KubernetesClientException: namespace cannot be null",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("joined:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
