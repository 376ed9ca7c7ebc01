package logs

import (
	"context"
	"os"
	"strings"
	"testing"

	clocktesting "k8s.io/utils/clock/testing"
)

// linesOf is lines from..to (1-based, inclusive) of a testdata file.
func linesOf(t *testing.T, file string, from, to int) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	if to > len(lines) {
		t.Fatalf("%s has %d lines; want %d", file, len(lines), to)
	}
	return strings.Join(lines[from-1:to], "")
}

const (
	draBurst   = "testdata/batch17/1711-dra-resourceslice-klog-keyless-processing-error-node-missing-create-denied-burst.log"
	draRestart = "testdata/batch17/1714-dra-resourceslice-klog-restart-update-denied-owner-node-deleted-burst.log"
	// draDenied is the start of what the handler's line of draBurst's
	// line 21 says.
	draDenied = `create resource slice: resourceslices.resource.k8s.io "00000-fabric.example.com-79smr" is forbidden`
)

// TestHandlerKeyed: HandleErrorWithContext's line on the worker's logger
// names no key; the sync's two lines just before it, of the parent logger,
// name one (poolName=fabric-b): one failure of fabric-b, its error the
// handler's, the evidence naming the field.
func TestHandlerKeyed(t *testing.T) {
	var said []LineReading
	s := readKeyAfter(t, linesOf(t, draBurst, 18, 20), &said)
	if n := s.Len(); n != 1 {
		t.Fatalf("%d keys (controllers %v); want 1", n, s.names())
	}
	k, err := s.Key("fabric.example.com", "fabric-b")
	if err != nil {
		t.Fatalf("%v; controllers %v", err, s.names())
	}
	if k.TotalFailures != 1 || k.LastError == nil || !strings.HasPrefix(k.LastError.Message, draDenied) {
		t.Errorf("%d failures, last error %+v; want 1, %q…", k.TotalFailures, k.LastError, draDenied)
	}
	if !strings.Contains(k.LogEvidence, `the poolName= of logger "fabric.example.com"`) {
		t.Errorf("evidence %q; want it to name the field and the logger", k.LogEvidence)
	}
}

// TestHandlerKeyedNot: what leaves the handler's line unread. Between the
// sync's lines (fabric-c) and the handler's, the informer's goroutine
// logged on the same logger a line of another key (`"Scheduled sync"
// poolName="fabric-b"`, batch17/1714 lines 49–55): two keys, none read —
// fabric-b would be a false key, fabric-c a guess. A line that carries the
// sync's field itself was logged inside the sync (`"pool validation
// failed" … poolName=`, after which syncPool returns nil, batch17/1713 line
// 15, put here after fabric-b's sync lines at its time): no failure. With
// no line of the parent logger before it (the node-owned pool's `retrieve
// node` fails before the sync logs), nothing names the key. A handler's
// line not read is said so (a failure, its key unknown); the line logged
// inside the sync is no failure at all.
func TestHandlerKeyedNot(t *testing.T) {
	validation := `E1207 11:00:49.146562   14015 resourceslicecontroller.go:529] "pool validation failed" err="found duplicate device \"nic-0\" in pool \"fabric-a\"" logger="fabric.example.com.UnhandledError" poolName="fabric-b"` + "\n"
	for name, c := range map[string]struct {
		log     string
		notRead int
	}{
		"informer's line of another key between": {linesOf(t, draRestart, 49, 55), 1},
		"the failure carries the sync's field":   {linesOf(t, draBurst, 18, 19) + validation, 0},
		"no line of the parent logger before":    {linesOf(t, draBurst, 1, 8), 8},
	} {
		var said []LineReading
		s := readKeyAfter(t, c.log, &said)
		if n := s.Len(); n != 0 {
			t.Errorf("%s: %d keys (controllers %v); want none", name, n, s.names())
		}
		notRead := 0
		for _, lr := range said {
			if lr.Meaning == notReadMeaning && strings.Contains(lr.Why, "HandleErrorWithContext on the worker's logger) names no key") {
				notRead++
			}
		}
		if notRead != c.notRead {
			t.Errorf("%s: %d lines said not read as a handler's keyless failure (%+v); want %d", name, notRead, said, c.notRead)
		}
	}
}

// TestHandlerKeyedWorkers: the whole burst (batch17/1711) read line by
// line and by parallel workers gives fabric-b its 13 failures either way:
// the lines kept for the handler's are the applier's, in the log's order.
func TestHandlerKeyedWorkers(t *testing.T) {
	log := linesOf(t, draBurst, 1, 68)
	for _, workers := range []int{1, 4} {
		s := NewStore(Options{Workers: workers, Clock: clocktesting.NewFakePassiveClock(corpusClock)})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			t.Fatal(err)
		}
		k, err := s.Key("fabric.example.com", "fabric-b")
		if err != nil {
			t.Fatalf("workers %d: %v; controllers %v", workers, err, s.names())
		}
		if k.TotalFailures != 13 {
			t.Errorf("workers %d: %d failures; want 13", workers, k.TotalFailures)
		}
	}
}
