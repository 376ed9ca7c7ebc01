package logs

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// melFailure is KubeOps v10's watcher failure as .NET's console formatter
// wrote it (testdata/batch26/2601, dotnet/dotnet-operator-sdk#1001): the
// header, the message, the exception (cut here after its status code),
// a blank line of the exception's text and a frame.
var melFailure = []string{
	"fail: KubeOps.Operator.Watcher.ResourceWatcher[0]",
	"      Reconciliation of Modified for CustomObj/mycrd failed.",
	"      k8s.Autorest.HttpOperationException: Operation returned an invalid status code 'Conflict', response body {\"kind\":\"Status\",\"code\":409}",
	"      ",
	"         at k8s.Kubernetes.SendRequestRaw(String requestContent, HttpRequestMessage httpRequest, CancellationToken cancellationToken)",
}

// TestMELConsoleRecordIsOneLine reads the header, message and exception
// of a .NET console record as one: KubeOps's failure, its key the name
// (CustomObj is the kind), its error the exception, terminal (v10 drops
// the event). The same record with the exception on the message's line
// would read the same.
func TestMELConsoleRecordIsOneLine(t *testing.T) {
	for name, lines := range map[string][]string{
		"whole":     melFailure,
		"no frames": melFailure[:3],
		"dated":     append([]string{"2025-12-01 10:14:07 " + melFailure[0]}, melFailure[1:]...),
		// Quoted in Markdown (the paste damage markdown-quote): the
		// message's line is read out of its quote, as the header is.
		"quoted":          quoted(melFailure),
		"record after it": append(append([]string{}, melFailure...), "info: KubeOps.Operator.Watcher.ResourceWatcher[0]", "      Received watch event \"Modified\" for \"CustomObj/mycrd\", last observed resource version: 5."),
	} {
		s := readLog(t, corpusClock, lines...)
		_, keys := s.views("")
		if len(keys) != 1 {
			t.Fatalf("%s: %d keys, want mycrd alone: %+v", name, len(keys), keys)
		}
		k := keys[0]
		if k.Key != "mycrd" || k.State != api.StateFailed || k.TotalFailures != 1 || k.LastError == nil ||
			!strings.HasPrefix(k.LastError.Message, "k8s.Autorest.HttpOperationException: Operation returned an invalid status code 'Conflict'") {
			t.Errorf("%s: read %s %s, %d failures, error %+v; want mycrd failed once with the exception", name, k.Key, k.State, k.TotalFailures, k.LastError)
		}
	}
}

// TestMELConsoleHeaderAlone leaves a header whose next line is not its
// message (not indented six spaces) as it is, and that next line is read
// on its own: here a zap line's failure, which must not be swallowed.
func TestMELConsoleHeaderAlone(t *testing.T) {
	s := readLog(t, corpusClock,
		"fail: KubeOps.Operator.Watcher.ResourceWatcher[0]",
		`{"level":"error","ts":"2025-12-01T10:14:07Z","msg":"Reconciler error","controller":"widget","namespace":"default","name":"w1","reconcileID":"r","error":"boom"}`,
	)
	_, keys := s.views("")
	if len(keys) != 1 || keys[0].Key != "default/w1" {
		t.Fatalf("read %+v, want default/w1 alone", keys)
	}
}

// TestMELConsoleInfoIsNoFailure reads an info record naming the same
// object (KubeOps's watch event) as nothing failing.
func TestMELConsoleInfoIsNoFailure(t *testing.T) {
	s := readLog(t, corpusClock,
		"info: KubeOps.Operator.Watcher.ResourceWatcher[0]",
		"      Received watch event \"Modified\" for \"CustomObj/mycrd\", last observed resource version: 5.",
	)
	_, keys := s.views("")
	for _, k := range keys {
		if k.TotalFailures > 0 || k.LastError != nil {
			t.Errorf("read %s failing (%d), want no failure", k.Key, k.TotalFailures)
		}
	}
}

// quoted is lines as GitHub's Markdown quotes them: "> " before each.
func quoted(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "> " + l
	}
	return out
}
