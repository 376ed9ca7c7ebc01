package logs

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The Java Operator SDK's lines, as its v4 code writes them: the failed
// attempt (ReconciliationDispatcher.handleExecution, batch24/2403's real
// line and exception) and, retries exhausted, the EventProcessor's line
// (its format "Exhausted retries for {}" with the same scope, in
// batch24/2421's Quarkus layout), logged just after.
const (
	josdkFailure = "[2022-10-16 03:28:38.536][ERROR][io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher.handleExecution(ReconciliationDispatcher.java:56)] Error during event processing ExecutionScope{ resource id: ResourceID{name='mycrd', namespace='null'}, version: 10785} failed."
	josdkCause   = "io.fabric8.kubernetes.client.KubernetesClientException: namespace cannot be null"
	josdkFrame   = "\tat io.fabric8.kubernetes.client.dsl.internal.BaseOperation.inNamespace(BaseOperation.java:235) ~[kubernetes-client-6.1.1.jar:?]"
)

func josdkExhausted(at string) string {
	return at + " ERROR [io.jav.ope.pro.eve.EventProcessor] (ReconcilerExecutor--65) Exhausted retries for ExecutionScope{ resource id: ResourceID{name='mycrd', namespace='null'}, version: 10785}"
}

// TestExhaustedEndsItsAttempt: "Exhausted retries" after its attempt's
// failure line is that attempt's end, not a failure more: one failure,
// the key failed (not retried), its error the failure's. A cluster-scoped
// resource's ResourceID (namespace='null') is its name alone.
func TestExhaustedEndsItsAttempt(t *testing.T) {
	s := readLog(t, corpusClock, josdkFailure, josdkCause, josdkFrame, josdkExhausted("2022-10-16 03:28:38,541"))
	k := findKey(t, s, "mycrd")
	if k.TotalFailures != 1 || k.State != api.StateFailed || k.LastError == nil || k.LastError.Message != josdkCause {
		t.Errorf("mycrd: %d failures, state %s, last error %+v; want 1, failed, %q", k.TotalFailures, k.State, k.LastError, josdkCause)
	}
}

// TestExhaustedAloneIsTheAttempt: kept alone (a paste of its one line,
// batch24/2421), the line is the attempt: one failure, terminal, no error
// stated; a failure line an attempt before it (past attemptWindow) is a
// failure of its own.
func TestExhaustedAloneIsTheAttempt(t *testing.T) {
	alone := readLog(t, corpusClock, " 2023-09-21 06:57:23,105 ERROR [io.jav.ope.pro.eve.EventProcessor] (ReconcilerExecutor--65) Exhausted retries for ExecutionScope{ resource id: ResourceID{name='test', namespace='default'}, version: 416164383},")
	if k := findKey(t, alone, "default/test"); k.TotalFailures != 1 || k.State != api.StateFailed {
		t.Errorf("default/test alone: %d failures, state %s; want 1, failed", k.TotalFailures, k.State)
	}
	apart := readLog(t, corpusClock, josdkFailure, josdkCause, josdkExhausted("2022-10-16 03:28:45,000"))
	if k := findKey(t, apart, "mycrd"); k.TotalFailures != 2 || k.State != api.StateFailed {
		t.Errorf("mycrd 7s apart: %d failures, state %s; want 2, failed", k.TotalFailures, k.State)
	}
}
