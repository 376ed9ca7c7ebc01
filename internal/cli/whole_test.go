package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// onTerminalForTest makes every writer a terminal (or none) until the
// returned func is called.
func onTerminalForTest(yes bool) func() {
	old := onTerminal
	onTerminal = func(io.Writer) bool { return yes }
	return func() { onTerminal = old }
}

// TestPipedMessagesWhole: piped (not a terminal), why's list, get
// --group-by error, diff and describe print messages whole, as kubectl
// does, so the detail at their end (the service that is not present, the
// item that answered 503) is kept; on a terminal they are fitted as
// before. The messages are the newcomer's, from the demo and kcm.
func TestPipedMessagesWhole(t *testing.T) {
	const ns = `Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: APIService v1beta1.metrics.k8s.io: service "kube-system/metrics-missing" is not present`
	const outage = `sync with inventory: PUT https://inventory.example.com/v1/items/outage-00000: 503 Service Unavailable`
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	key := &api.Key{Controller: "outage", Key: "demo/outage-00000", Failures: 3, State: api.StateBackoff,
		LastError: &api.ErrorRecord{Message: outage}}
	printers := map[string]struct {
		print func(w io.Writer)
		whole string
	}{
		"why TYPE": {func(w io.Writer) {
			if onTerminal(w) { // a terminal's width, not the test buffer's none
				defer screenWidthForTest(100)()
			}
			printAnswerList(w, []*why.Answer{{Object: why.Object{Kind: "Namespace", Name: "stuck"}, Verdict: why.Verdict{Status: why.InProgress, Message: ns}}}, false)
		}, ns},
		"get --group-by error": {func(w io.Writer) {
			printErrorGroups(w, &api.ErrorGroupList{ServerTime: now, Groups: []api.ErrorGroup{{Controller: "outage", Count: 12, Message: outage, Examples: []string{"demo/outage-00000"}}}}, false)
		}, outage},
		"diff": {func(w io.Writer) {
			printChanges(w, []snapshot.Change{{Controller: "outage", Key: "demo/outage-00000", Changes: []string{snapshot.Started}, After: key}})
		}, outage},
		"describe": {func(w io.Writer) {
			d := &describe.Description{Object: &objstatus.Object{Verdict: objstatus.Verdict{Status: objstatus.Failed, Message: ns,
				Conditions: []objstatus.Condition{{Type: "NamespaceDeletionDiscoveryFailure", Status: "True", Reason: "DiscoveryFailed", Message: ns}}}}}
			d.Key = &inspector.PodKeyDetail{}
			d.Key.ServerTime = now
			printObjectStatus(w, d, "")
		}, ns},
	}
	for name, p := range printers {
		var piped bytes.Buffer
		p.print(&piped)
		if !strings.Contains(piped.String(), p.whole) {
			t.Errorf("%s, piped:\n%s\nwant the message whole: %q", name, piped.String(), p.whole)
		}
		var tty bytes.Buffer
		restore := onTerminalForTest(true)
		p.print(&tty)
		restore()
		if strings.Contains(tty.String(), p.whole) || !strings.Contains(tty.String(), "…") {
			t.Errorf("%s, on a terminal:\n%s\nwant the message fitted (cut with …)", name, tty.String())
		}
	}
}
