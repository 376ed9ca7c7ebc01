package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestErrorColumnAt80: get on an 80-column terminal keeps LAST ERROR
// useful, as top does at that width. The demo's naive keys (one
// controller) showed "spec.sto…" in 8 cells; now DELAY and the repeated
// CONTROLLER give way and the error shows whole. The outage's error,
// longer than any room, keeps its start and its cause (Service Unavailable), not the
// part a cut at the edge kept.
func TestErrorColumnAt80(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	list := func(ctl, msg string) *inspector.KeyList {
		l := &inspector.KeyList{ServerTime: now}
		for i := range 3 {
			l.Items = append(l.Items, inspector.PodKey{Key: api.Key{Controller: ctl, Key: fmt.Sprintf("demo/%s-%05d", ctl, i),
				State: api.StateBackoff, Failures: 14, NextRetryAt: now.Add(32 * time.Second), Delay: metav1.Duration{Duration: 41 * time.Second},
				DelaySource: api.SourceItemExponential, LastError: &api.ErrorRecord{Message: msg, At: now}}})
		}
		return l
	}
	for _, tt := range []struct {
		name string
		l    *inspector.KeyList
		want []string
		not  []string
	}{{
		name: "naive", l: list("naive", "spec.storageClass must be set"),
		want: []string{"KEY", "NEXT RETRY", "LAST ERROR", "demo/naive-00000", "spec.storageClass must be set"},
		not:  []string{"SOURCE", "DELAY", "CONTROLLER"},
	}, {
		name: "outage", l: list("outage", "sync with inventory: PUT https://inventory.example.com/v1/items/outage-00000: 503 Service Unavailable"),
		want: []string{"demo/outage-00000", "sync with…", "Service Unavailable"},
	}} {
		var b bytes.Buffer
		printKeysFit(&b, tt.l, false, false, 80)
		out := b.String()
		for line := range strings.Lines(out) {
			if w := ansi.StringWidth(strings.TrimSuffix(line, "\n")); w > 80 || strings.HasSuffix(strings.TrimSpace(line), "…") {
				t.Errorf("%s: a line of %d cells, or cut at the edge: %q", tt.name, w, line)
			}
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the table lacks %q:\n%s", tt.name, w, out)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: the table has %q:\n%s", tt.name, n, out)
			}
		}
	}
}

// TestErrorColumnStartWhenNarrow: at 80 columns beside several long
// controller names (kube-controller-manager's, batch14/1440) LAST ERROR
// has about 11 cells; cut in its middle it read "failed…ran…", two
// stubs. Under text.MinMiddleCut cells it shows the error's start, cut at
// its end, as a terminal shows a line too long for it.
func TestErrorColumnStartWhenNarrow(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	l := &inspector.KeyList{ServerTime: now}
	for _, k := range []struct{ ctl, key, msg string }{
		{"range_allocator", "edge-c", "failed to allocate cidr from cluster cidr at idx:0: CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range"},
		{"disruption-controller", "payments-migr/ledger-db-pdb", `poddisruptionbudgets.policy "ledger-db-pdb" is forbidden: namespace is frozen for migration MIG-2231`},
		{"persistentvolume-protection-controller", "nfs-archive-02", `persistentvolumes "nfs-archive-02" is forbidden: storage objects are under legal hold LH-77`},
		{"endpointslicemirroring_controller", "lab/legacy-db", "failed to create EndpointSlice for Endpoints lab/legacy-db: denied by policy SEC-118 (break-glass required)"},
	} {
		l.Items = append(l.Items, inspector.PodKey{Key: api.Key{Controller: k.ctl, Key: k.key, State: api.StateBackoff, Failures: 3,
			NextRetryAt: now.Add(40 * time.Second), Delay: metav1.Duration{Duration: 41 * time.Second}, DelaySource: api.SourceItemExponential,
			LastError: &api.ErrorRecord{Message: k.msg, At: now}}})
	}
	var b bytes.Buffer
	printKeysFit(&b, l, false, false, 80)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	at := errorColumnAt(lines)
	if room := 80 - at; room >= 20 || room < 8 {
		t.Fatalf("LAST ERROR has %d cells; this test wants a column under 20 (several long controllers):\n%s", room, b.String())
	}
	for i, line := range lines[1:] {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("a line of %d cells: %q", w, line)
		}
		cell := strings.TrimSpace(line[at:])
		start, cut := strings.CutSuffix(cell, "…")
		if !cut || strings.Contains(start, "…") || !strings.HasPrefix(l.Items[i].LastError.Message, start) || len(start) < 8 {
			t.Errorf("row %d's error %q, want the start of %q cut at its end", i, cell, l.Items[i].LastError.Message)
		}
	}
}
