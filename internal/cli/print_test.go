package cli

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

var printNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// printKeyList has a key in backoff with a two-line error, a converged key,
// and a key whose error overflows the LAST ERROR column.
func printKeyList() *inspector.KeyList {
	long := strings.Repeat("x", 70)
	return &inspector.KeyList{ServerTime: printNow, Total: 3, Matched: 3, Items: []inspector.PodKey{
		{Pod: "ops/ctrl-0", Key: api.Key{Controller: "widget", Key: "default/w1", State: api.StateBackoff,
			Failures: 17, TotalFailures: 20, Reconciles: 40, SameErrorCount: 17,
			NextRetryAt: printNow.Add(4*time.Minute + 12*time.Second), Delay: metav1.Duration{Duration: 327680 * time.Millisecond},
			DelaySource: api.SourceItemExponential, FirstFailureAt: printNow.Add(-20 * time.Minute), LastEventAt: printNow.Add(-2 * time.Minute),
			LastError: &api.ErrorRecord{Message: "dial tcp 10.0.0.7:443:\n\tconnect: connection refused", At: printNow, Class: api.ClassTransient}}},
		{Key: api.Key{Controller: "widget", Key: "default/w2", State: api.StateIdle, Reconciles: 3}},
		{Pod: "ops/ctrl-1", Key: api.Key{Controller: "gadget", Key: "default/g1", State: api.StateQueued, Failures: 2,
			NextRetryAt: printNow.Add(-1500 * time.Millisecond), Delay: metav1.Duration{Duration: 10 * time.Millisecond},
			DelaySource: api.SourceBucket, LastError: &api.ErrorRecord{Message: long, At: printNow}}},
	}}
}

// printGap is what separates the cells of a table: tabwriter pads with at
// least three spaces, and no cell holds two spaces in a row.
var printGap = regexp.MustCompile(` {2,}`)

// printColumns splits a table into rows of cells.
func printColumns(table string) [][]string {
	var rows [][]string
	for line := range strings.Lines(table) {
		rows = append(rows, printGap.Split(strings.TrimRight(line, " \n"), -1))
	}
	return rows
}

func TestPrintKeys(t *testing.T) {
	clipped := strings.Repeat("x", (maxErrorColumn-1)/3) + "…" + strings.Repeat("x", maxErrorColumn-1-(maxErrorColumn-1)/3)
	tests := []struct {
		wide, pods bool
		want       [][]string
	}{{
		wide: false,
		want: [][]string{
			{"CONTROLLER", "KEY", "STATE", "FAILS", "NEXT RETRY", "DELAY", "SOURCE", "LAST ERROR"},
			{"widget", "default/w1", "backoff", "17", "4m12s", "5m28s", "item-exponential", "dial tcp 10.0.0.7:443: connect: connection refused"},
			{"widget", "default/w2", "idle", "0", "-", "-", "-", "<none>"},
			{"gadget", "default/g1", "queued", "2", "ready", "10ms", "bucket", clipped},
		},
	}, {
		wide: true,
		want: [][]string{
			{"CONTROLLER", "KEY", "STATE", "FAILS", "NEXT RETRY", "DELAY", "SOURCE", "CLASS", "TOTAL", "RECONCILES", "SAME ERR", "FAILING FOR", "LAST CHANGE", "POD", "LAST ERROR"},
			{"widget", "default/w1", "backoff", "17", "4m12s", "5m28s", "item-exponential", "transient", "20", "40", "17", "20m0s", "2m0s ago", "ops/ctrl-0", "dial tcp 10.0.0.7:443: connect: connection refused"},
			{"widget", "default/w2", "idle", "0", "-", "-", "-", "-", "0", "3", "0", "-", "-", "-", "<none>"},
			// -o wide never truncates.
			{"gadget", "default/g1", "queued", "2", "ready", "10ms", "bucket", "-", "0", "0", "0", "-", "-", "ops/ctrl-1", strings.Repeat("x", 70)},
		},
	}, {
		// -A: each row leads with where the key is, as kubectl's -A does.
		pods: true,
		want: [][]string{
			{"NAMESPACE", "POD", "CONTROLLER", "KEY", "STATE", "FAILS", "NEXT RETRY", "DELAY", "SOURCE", "LAST ERROR"},
			{"ops", "ctrl-0", "widget", "default/w1", "backoff", "17", "4m12s", "5m28s", "item-exponential", "dial tcp 10.0.0.7:443: connect: connection refused"},
			{"-", "-", "widget", "default/w2", "idle", "0", "-", "-", "-", "<none>"},
			{"ops", "ctrl-1", "gadget", "default/g1", "queued", "2", "ready", "10ms", "bucket", clipped},
		},
	}, {
		wide: true, pods: true, // POD once, in front
		want: [][]string{
			{"NAMESPACE", "POD", "CONTROLLER", "KEY", "STATE", "FAILS", "NEXT RETRY", "DELAY", "SOURCE", "CLASS", "TOTAL", "RECONCILES", "SAME ERR", "FAILING FOR", "LAST CHANGE", "LAST ERROR"},
			{"ops", "ctrl-0", "widget", "default/w1", "backoff", "17", "4m12s", "5m28s", "item-exponential", "transient", "20", "40", "17", "20m0s", "2m0s ago", "dial tcp 10.0.0.7:443: connect: connection refused"},
			{"-", "-", "widget", "default/w2", "idle", "0", "-", "-", "-", "-", "0", "3", "0", "-", "-", "<none>"},
			{"ops", "ctrl-1", "gadget", "default/g1", "queued", "2", "ready", "10ms", "bucket", "-", "0", "0", "0", "-", "-", strings.Repeat("x", 70)},
		},
	}}
	for _, tt := range tests {
		var b bytes.Buffer
		printKeys(&b, printKeyList(), tt.wide, tt.pods)
		got := printColumns(b.String())
		if len(got) != len(tt.want) {
			t.Fatalf("wide %v: %d rows, want %d:\n%s", tt.wide, len(got), len(tt.want), b.String())
		}
		for i := range got {
			if !slices.Equal(got[i], tt.want[i]) {
				t.Errorf("wide %v, row %d:\n got %q\nwant %q", tt.wide, i, got[i], tt.want[i])
			}
		}
		// Columns line up: every row puts KEY at the same offset.
		lines := strings.Split(b.String(), "\n")
		if at := strings.Index(lines[0], "KEY"); strings.Index(lines[1], "default/w1") != at || strings.Index(lines[3], "default/g1") != at {
			t.Errorf("wide %v: columns do not line up:\n%s", tt.wide, b.String())
		}
	}
}

func TestPrintKeysEmpty(t *testing.T) {
	var b bytes.Buffer
	printKeys(&b, &inspector.KeyList{ServerTime: printNow}, false, false)
	if got := printColumns(b.String()); len(got) != 1 || got[0][0] != "CONTROLLER" {
		t.Errorf("empty list printed %q, want only the header", b.String())
	}
}

func TestPrintPods(t *testing.T) {
	var b bytes.Buffer
	printPods(&b, []cluster.Pod{{Namespace: "ops", Name: "ctrl-0", Port: 8082, Ready: true}, {Namespace: "dev", Name: "ctrl-1", Port: 9090}})
	want := [][]string{{"NAMESPACE", "POD", "PORT", "READY"}, {"ops", "ctrl-0", "8082", "true"}, {"dev", "ctrl-1", "9090", "false"}}
	got := printColumns(b.String())
	if len(got) != len(want) {
		t.Fatalf("printPods: %q", b.String())
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("printPods row %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// TestDur checks only what dur adds to text.FormatDuration: a dash for none.
func TestDur(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "-"},
		{-time.Second, "-"},
		{5 * time.Millisecond, "5ms"},
		{1250 * time.Millisecond, "1.3s"},
		{25*time.Hour + 30*time.Minute, "1d2h"},
	}
	for _, tt := range tests {
		if got := dur(tt.d); got != tt.want {
			t.Errorf("dur(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"", 10, ""},
		{"a\nb " + strings.Repeat("c", 100), 0, "a b " + strings.Repeat("c", 100)},
		{"dial tcp:\n\tconnect:  refused\n", 80, "dial tcp: connect: refused"},
		{"0123456789", 10, "0123456789"},
		// Cut in the middle, keeping more of the end, where a wrapped
		// error's cause is.
		{"0123456789a", 10, "012…56789a"},
		{"ééééé", 4, "é…éé"},
		{"a   b   c", 4, "a… c"},
		{"PUT https://inventory.demo.svc/v1/items/outage-00003: 503 Service Unavailable", 40,
			"PUT https://i…3: 503 Service Unavailable"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.s, tt.n); got != tt.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestDash(t *testing.T) {
	if dash("") != "-" || dash("x") != "x" {
		t.Errorf(`dash("") = %q, dash("x") = %q; want "-" and "x"`, dash(""), dash("x"))
	}
}

// A key counted only through Requeue: true: FAILS 1 and, for LAST ERROR,
// what counted it, not <none>.
func TestPrintKeysRequeued(t *testing.T) {
	var b bytes.Buffer
	k := api.Key{Controller: "c", Key: "ns/r", State: api.StateBackoff, Failures: 1, Requeued: true, NextRetryAt: printNow.Add(time.Second)}
	printKeys(&b, &inspector.KeyList{ServerTime: printNow, Items: []inspector.PodKey{{Key: k}}}, false, false)
	if out := b.String(); !strings.Contains(out, "Requeue: true (no error)") || strings.Contains(out, "<none>") {
		t.Errorf("printed:\n%s\nwant LAST ERROR to say Requeue: true (no error)", out)
	}
}
