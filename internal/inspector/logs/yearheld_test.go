package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestYearlessBeforeDatedLines reads a saved log whose klog errors (no
// year) come before its logrus lines (2019), as argo-rollouts' does (batch
// 6's 101, reduced): the headers take the log's year, not the reading
// clock's, whether the dated lines come before or after them, on either
// read (parallel, and line by line). Dated 2026, the read was "as of" the
// last klog line and the retry the last line logs was past the log's end:
// "Next retry at 18:04:30 (16m40s after the log's last line)".
func TestYearlessBeforeDatedLines(t *testing.T) {
	const log = `E0514 17:14:30.111783       1 controller.go:259] error syncing 'demo/r': rollout.argoproj.io "r" not found, requeuing
time="2019-05-14T17:31:10Z" level=info msg="Started syncing rollout" rollout=demo/r
E0514 17:31:10.112419       1 controller.go:259] error syncing 'demo/r': rollout.argoproj.io "r" not found, requeuing
time="2019-05-14T17:47:50Z" level=info msg="Started syncing rollout" rollout=demo/r
E0514 17:47:50.112943       1 controller.go:259] error syncing 'demo/r': rollout.argoproj.io "r" not found, requeuing
time="2019-05-14T18:04:30Z" level=info msg="Started syncing rollout" rollout=demo/r
`
	clk := clocktesting.NewFakePassiveClock(time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC))
	first := time.Date(2019, 5, 14, 17, 14, 30, 111783000, time.UTC)
	end := time.Date(2019, 5, 14, 18, 4, 30, 0, time.UTC)
	for _, workers := range []int{1, 4} {
		s := NewStore(Options{Clock: clk, Workers: workers})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			t.Fatal(err)
		}
		st := s.Stats()
		if !st.First.Equal(first) || !st.EndsAt.Equal(end) {
			t.Errorf("workers %d: read %v to %v (as of %v), want %v to %v", workers, st.First, st.Last, st.EndsAt, first, end)
		}
		lr := s.LogRead()
		if lr.YearAssumed != 0 || lr.OutOfOrder != 0 {
			t.Errorf("workers %d: %d years assumed, %d lines out of order; want 0 and 0: the log's lines date them, in order", workers, lr.YearAssumed, lr.OutOfOrder)
		}
		d, err := s.Key("controller", "demo/r")
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		if k := d.Key; k.Failures != 3 || k.NextRetryAt.Year() != 2019 || k.NextRetryAt.After(end.Add(time.Second)) {
			t.Errorf("workers %d: %d failures, next retry %v; want 3, due by the log's last line %v", workers, k.Failures, k.NextRetryAt, end)
		}
	}
}

// TestYearsAssumedPastHoldCap: a parallel read counts its records'
// diagnostics a chunk at a time (diagTally), and a held batch applied in
// the middle of a chunk (holdCap records held) takes back the years it
// assumed (redateHeldLocked) only after the chunk's count so far is added:
// year-less klog errors before the log's first dated line, then past it,
// are all dated by the log's year, none said to be assumed, on either read.
func TestYearsAssumedPastHoldCap(t *testing.T) {
	const klogLine = "E0514 17:14:30.111783       1 controller.go:259] error syncing 'demo/r': rollout.argoproj.io \"r\" not found, requeuing\n"
	// The same dialect's line, dated by the kubelet: no change of dialect
	// adds the count before it.
	const datedLine = "2019-05-14T17:31:10.112419Z " + klogLine
	before := holdCap - 100 // the batch is applied inside the chunk after the dated line
	log := strings.Repeat(klogLine, before) + datedLine + strings.Repeat(klogLine, 3*chunkLines)
	clk := clocktesting.NewFakePassiveClock(time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC))
	for _, workers := range []int{1, 2} {
		s := NewStore(Options{Clock: clk, Workers: workers})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			t.Fatal(err)
		}
		lr := s.LogRead()
		if lr.YearAssumed != 0 {
			t.Errorf("workers %d: %d years assumed, want 0: the log's dated line dates every header", workers, lr.YearAssumed)
		}
		n := 0
		for _, c := range lr.Recognised {
			n += c
		}
		if want := before + 1 + 3*chunkLines; n != want {
			t.Errorf("workers %d: %d records recognised, want %d", workers, n, want)
		}
	}
}
