package logs

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// lines15 are lines of batch15/1506 (sig-storage-lib-external-provisioner
// v13 run here), by their number in the excerpt.
func lines15(t *testing.T, nums ...int) string {
	t.Helper()
	raw, err := os.ReadFile("testdata/batch15/1506-sig-storage-provisioner-klog-giving-up-syncing-claim-volume-terminal.log")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(string(raw), "\n")
	var b strings.Builder
	for _, n := range nums {
		b.WriteString(all[n-1] + "\n")
	}
	return b.String()
}

// TestGiveUpThenHandleError: the provisioner's claim worker says
// "Giving up syncing claim" (E, no error) and hands the attempt's error to
// HandleError two lines on; its volume worker says it at info level on the
// line just before. Either pair is one attempt, given up, whose error is
// the HandleError line's.
func TestGiveUpThenHandleError(t *testing.T) {
	const claim, volume = "f80c3033-fc51-4ec8-9d1c-10a076d9bd3c", "archive-2025-q3"
	for name, tc := range map[string]struct {
		lines []int
		key   string
		want  int
		state api.State
	}{
		"claim, E give-up":                  {[]int{55, 56, 57, 90, 91, 92, 93}, claim, 2, api.StateFailed},
		"volume, info give-up":              {[]int{51, 77, 94, 95}, volume, 2, api.StateFailed},
		"volume, give-up of another key":    {[]int{51, 77, 94, 93}, claim, 1, api.StateBackoff},
		"claim, HandleError line alone":     {[]int{93}, claim, 1, api.StateBackoff},
		"claim, give-up and no HandleError": {[]int{55, 56, 57, 90, 91, 92}, claim, 2, api.StateFailed},
	} {
		t.Run(name, func(t *testing.T) {
			var said []LineReading
			s := readKeyAfter(t, lines15(t, tc.lines...), &said)
			k := findKey(t, s, tc.key)
			if k.TotalFailures != tc.want || k.State != tc.state {
				t.Errorf("%d failures, %s; want %d, %s", k.TotalFailures, k.State, tc.want, tc.state)
			}
			if len(tc.lines) == 7 && !slices.ContainsFunc(said, func(lr LineReading) bool {
				return lr.Line == 7 && strings.Contains(lr.Meaning, "gave the key up")
			}) {
				t.Errorf("line 7 (the HandleError line) not explained as the give-up's error: %+v", said)
			}
			if tc.state == api.StateFailed && len(tc.lines) == 7 && (k.LastError == nil || !strings.HasPrefix(k.LastError.Message, "rpc error: code = ResourceExhausted")) {
				t.Errorf("last error %+v, want the HandleError line's", k.LastError)
			}
		})
	}
}

// TestGiveUpLineAloneNamesNoKey: the volume worker's info-level give-up
// with no failure line after it is no failure.
func TestGiveUpLineAloneNamesNoKey(t *testing.T) {
	var said []LineReading
	s := readKeyAfter(t, lines15(t, 94), &said)
	if _, keys := s.views(""); len(keys) != 0 {
		t.Errorf("%d keys, want none: %+v", len(keys), keys)
	}
}

// TestGiveUpKeepsAStatedCount: the provisioner gives a key up at
// "failures=4" and does not Forget it ("Done but do not Forget",
// controller.go:993, :1043 of v13.1.0): its queue keeps the count, so the
// key read off the log keeps it too, the 4 failures before the give-up
// and the give-up's own, 5 — not 0, which read "failed 0" beside a line
// that says failures=4. A give-up that states no count is client-go's
// Forget-then-drop idiom, and its count goes back to 0 (Volcano,
// batch3/78).
func TestGiveUpKeepsAStatedCount(t *testing.T) {
	const claim, volume = "f80c3033-fc51-4ec8-9d1c-10a076d9bd3c", "archive-2025-q3"
	for name, tc := range map[string]struct {
		lines []int
		key   string
	}{
		"claim, E give-up states failures=4":     {[]int{55, 56, 57, 90, 91, 92, 93}, claim},
		"volume, info give-up just before":       {[]int{51, 77, 94, 95}, volume},
		"claim, give-up with no HandleError":     {[]int{55, 56, 57, 90, 91, 92}, claim},
		"claim, give-up line and its error only": {[]int{91, 92, 93}, claim},
	} {
		t.Run(name, func(t *testing.T) {
			var said []LineReading
			s := readKeyAfter(t, lines15(t, tc.lines...), &said)
			k := findKey(t, s, tc.key)
			if k.State != api.StateFailed || k.Failures != 5 {
				t.Errorf("%s, %d failures; want failed, 5 (4 stated before the give-up, and it)", k.State, k.Failures)
			}
			if r := k.LastReset; r == nil || r.By != api.ResetGaveUp || !r.Kept || r.Failures != 5 {
				t.Errorf("last reset %+v, want a give-up that kept 5", r)
			}
		})
	}
	raw, err := os.ReadFile("testdata/batch3/78-volcano-klog-dropping-out-of-queue-terminal.log")
	if err != nil {
		t.Fatal(err)
	}
	var said []LineReading
	k := findKey(t, readKeyAfter(t, string(raw), &said), "test/vcjob-1")
	if r := k.LastReset; k.State != api.StateFailed || k.Failures != 0 || r == nil || r.Kept {
		t.Errorf("Volcano's drop: %s, %d failures, reset %+v; want failed, 0, a reset not kept", k.State, k.Failures, r)
	}
}
