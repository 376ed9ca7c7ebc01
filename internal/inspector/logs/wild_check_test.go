package logs

import (
	"bufio"
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// checkWild reads one excerpt of testdata/wild as Store.Read does and
// checks it against tt (TestWildLogs' table).
func checkWild(t *testing.T, tt wildCase) {
	raw, err := os.ReadFile(filepath.Join("testdata/wild", tt.file))
	if err != nil {
		t.Fatal(err)
	}
	ref := tt.ref
	if ref.IsZero() {
		ref = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) // no klog line: any reference
	}
	recs := appliedRecords(raw, ref)

	got := map[string]*wildKey{}
	var order []string
	var firstLast Record
	for _, r := range recs {
		id := r.Controller + " " + r.Key()
		k := got[id]
		if k == nil {
			k = &wildKey{controller: r.Controller, key: r.Key()}
			got[id] = k
			order = append(order, id)
		}
		if id == order[0] {
			firstLast = r
		}
		switch r.What {
		case ErrorLine:
			if r.GaveUp {
				k.gaveUp++
			} else {
				k.failures++
			}
			k.lastError, k.retryIn, k.retries = r.Error, r.RetryIn, r.Retries
		case RequeueAfterLine:
			k.requeues++
		case RequeueLine:
			k.rateLimited++
		case StartLine:
			k.starts++
		}
		want, ok := tt.limiters[r.Controller]
		if !ok {
			want = tt.limiter
		}
		if r.Limiter != want {
			t.Errorf("%s: limiter = %+v, want %+v", id, r.Limiter, want)
		}
		if r.ClientGoQueue != tt.clientGo {
			t.Errorf("%s: clientGoQueue = %v, want %v", id, r.ClientGoQueue, tt.clientGo)
		}
	}
	var want []string
	for _, w := range tt.keys {
		id := w.controller + " " + w.key
		want = append(want, id)
		g := got[id]
		if g == nil {
			t.Errorf("no key %q (controller %q); got %v", w.key, w.controller, order)
			continue
		}
		if *g != w {
			t.Errorf("%s:\n got  %+v\n want %+v", id, *g, w)
		}
	}
	for _, m := range tt.missed {
		if got[m] != nil {
			t.Errorf("key %q found; its lines do not say it (missed on purpose)", m)
		}
	}
	if !slices.Equal(order, want) {
		t.Errorf("keys = %q, want %q", order, want)
	}
	if tt.at != "" && len(order) > 0 {
		if g := firstLast.At.UTC().Format(time.RFC3339Nano); g != tt.at {
			t.Errorf("time of %s's last record = %s, want %s", order[0], g, tt.at)
		}
	}

	// The same file through Store.Read: its diagnostics.
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(ref)})
	n, _, err := s.Read(context.Background(), bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	lr := s.LogRead()
	if wantLines := bytes.Count(raw, []byte("\n")); n != wantLines || lr.Lines != wantLines {
		t.Errorf("lines read = %d (LogRead %d), want %d", n, lr.Lines, wantLines)
	}
	if !maps.Equal(lr.Recognised, tt.dialects) && len(lr.Recognised)+len(tt.dialects) > 0 {
		t.Errorf("recognised = %v, want %v", lr.Recognised, tt.dialects)
	}
	if lr.Unreadable != tt.unreadable {
		t.Errorf("unreadable = %d, want %d", lr.Unreadable, tt.unreadable)
	}
	if (lr.Example != "") != (tt.unreadable > 0) {
		t.Errorf("example = %q with %d unreadable", lr.Example, tt.unreadable)
	}
	if lr.Untimed != tt.untimed {
		t.Errorf("untimed = %d, want %d", lr.Untimed, tt.untimed)
	}
	if st := s.Stats(); st.Records > 0 && !st.First.IsZero() && (st.First.Year() < 2000 || st.Last.Year() < 2000) {
		t.Errorf("times %v to %v: a time before 2000 is a time it made up", st.First, st.Last)
	}
}

// appliedRecords are the records Store.Read applies, in order: those
// readRecords parses, but one attempt logged twice once (attempt.go).
func appliedRecords(raw []byte, ref time.Time) []Record {
	var out []Record
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(ref), Workers: 1})
	s.applied = func(r Record) { out = append(out, r) }
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		panic(err)
	}
	return out
}

// readRecords parses a log as Store.Read does (multi-line klog values
// joined), keeping the records.
func readRecords(raw []byte, ref time.Time) []Record {
	var out []Record
	var j joiner
	emit := func(line []byte) {
		if r, ok := Parse(line, ref); ok {
			out = append(out, r)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	for sc.Scan() {
		j.feed(append(sc.Bytes(), '\n'), emit)
	}
	j.flush(emit)
	return out
}
