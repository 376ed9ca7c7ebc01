package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestOutOfOrderLogReadsAsSorted: a saved log gives one answer whatever
// the order of its lines (issue #47 item 9): newest first, as a log
// store exports, or shuffled, as logs merged from replicas; and says it
// was out of order and how it was read. Real logs: the e2e tier's
// kube-controller-manager (keys with several errors each, 13 failures of
// one) and Rancher's seven keys; and the four lines.
func TestOutOfOrderLogReadsAsSorted(t *testing.T) {
	four := strings.Join([]string{
		`E1201 01:00:00.000000       1 controller.go:100] error syncing "ns/web": quota exceeded`,
		`E1201 02:00:00.000000       1 controller.go:100] error syncing "ns/web": quota exceeded`,
		`E1201 03:00:00.000000       1 controller.go:100] error syncing "ns/web": serviceaccount missing`,
		`E1201 03:00:01.000000       1 controller.go:100] error syncing "ns/web": serviceaccount missing`,
	}, "\n") + "\n"
	for _, tt := range []struct{ name, log string }{
		{"kube-controller-manager", readTestdata(t, "testdata/wild/kube-controller-manager-e2e.log")},
		{"rancher", readTestdata(t, "testdata/batch3/75-rancher-wrangler-error-syncing-seven-keys.log")},
		{"four lines", four},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines := strings.SplitAfter(strings.TrimSuffix(tt.log, "\n"), "\n")
			for i := range lines {
				lines[i] = strings.TrimSuffix(lines[i], "\n") + "\n"
			}
			want, lr := readAnswers(t, strings.Join(lines, ""))
			if lr.OutOfOrder != 0 || lr.NewestFirst {
				t.Errorf("in order: %d out of order, newest first %v", lr.OutOfOrder, lr.NewestFirst)
			}
			reversed := slices.Clone(lines)
			slices.Reverse(reversed)
			shuffled := slices.Clone(lines)
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for _, o := range []struct {
				name        string
				lines       []string
				newestFirst bool
			}{{"newest first", reversed, true}, {"shuffled", shuffled, false}} {
				got, lr := readAnswers(t, strings.Join(o.lines, ""))
				if got != want {
					t.Errorf("%s: answers differ from the log in order:\n got  %s\n want %s", o.name, got, want)
				}
				if lr.OutOfOrder == 0 || lr.NewestFirst != o.newestFirst {
					t.Errorf("%s: %d out of order, newest first %v; want some, %v", o.name, lr.OutOfOrder, lr.NewestFirst, o.newestFirst)
				}
			}
		})
	}
}

// TestOutOfOrderLiveLogSaysSo: a live log is applied as its lines come; a
// line older than its key's newest is counted as out of order.
func TestOutOfOrderLiveLogSaysSo(t *testing.T) {
	log := strings.Join([]string{
		`E1201 02:00:00.000000       1 controller.go:100] error syncing "ns/web": quota exceeded`,
		`E1201 01:00:00.000000       1 controller.go:100] error syncing "ns/web": quota exceeded`,
	}, "\n") + "\n"
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	if lr := s.LogRead(); lr.OutOfOrder != 1 || lr.NewestFirst {
		t.Errorf("%d out of order, newest first %v; want 1, false", lr.OutOfOrder, lr.NewestFirst)
	}
}

func readTestdata(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// readAnswers reads a saved log and gives its keys' answers as JSON, and
// what it said of the read.
func readAnswers(t *testing.T, log string) (string, logReadOrder) {
	t.Helper()
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), bytes.NewReader([]byte(log))); err != nil {
		t.Fatal(err)
	}
	_, keys := s.views("")
	for i := range keys {
		keys[i].LogLine = "" // the line a key was read from is the same line, read in another place
	}
	// Keys of one rank are listed in the order first read.
	slices.SortFunc(keys, func(a, b api.Key) int { return strings.Compare(a.Controller+" "+a.Key, b.Controller+" "+b.Key) })
	raw, err := json.Marshal(keys)
	if err != nil {
		t.Fatal(err)
	}
	lr := s.LogRead()
	return string(raw), logReadOrder{lr.OutOfOrder, lr.NewestFirst}
}

// logReadOrder is what a read said of its lines' order.
type logReadOrder struct {
	OutOfOrder  int
	NewestFirst bool
}
