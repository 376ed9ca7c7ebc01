package snapshot_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// Keys of the live endpoint: more than a page of v1/keys (api.MaxLimit).
const (
	idleKeys    = 1100
	failingKeys = 120
)

// live serves a controller "widget" on a real instrument endpoint:
// idleKeys converged keys, and failingKeys keys failing i%7+1 times with
// one of two errors.
func live(t *testing.T) *inspector.Session {
	t.Helper()
	reg := instrument.NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	clk := clocktesting.NewFakeClock(now)
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: clk})
	rl := p.RateLimiter(nil)
	var fail error
	rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) { return reconcile.Result{}, fail }))
	for i := range idleKeys {
		fail = nil
		_, _ = rec.Reconcile(t.Context(), fmt.Sprintf("default/idle-%05d", i))
	}
	for i := range failingKeys {
		// Messages differ by key; the server's fingerprints fold them into two groups.
		fail = []error{fmt.Errorf("dial tcp 10.0.%d.7:443: connection refused", i), fmt.Errorf(`invalid spec of "w-%d"`, i)}[i%2]
		k := fmt.Sprintf("default/fail-%05d", i)
		for range i%7 + 1 {
			_, _ = rec.Reconcile(t.Context(), k)
			rl.When(k)
		}
	}
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTakeWriteReadServe(t *testing.T) {
	ctx := t.Context()
	s := live(t)
	const maxDetails = 50
	f, err := snapshot.Take(ctx, s, snapshot.TakeOptions{Source: "test", MaxDetails: maxDetails})
	if err != nil {
		t.Fatal(err)
	}
	if e, a := 1, len(f.Endpoints); e != a {
		t.Fatalf("endpoints: got %d, want %d", a, e)
	}
	ep := f.Endpoints[0]
	if e, a := idleKeys+failingKeys, len(ep.Keys); e != a {
		t.Errorf("keys: got %d, want %d (every key, over several pages)", a, e)
	}
	if e, a := maxDetails, len(ep.Details); e != a {
		t.Errorf("details: got %d, want %d", a, e)
	}
	if e, a := failingKeys-maxDetails, ep.DetailsOmitted; e != a {
		t.Errorf("detailsOmitted: got %d, want %d", a, e)
	}
	// The details are the most failing keys, with their history.
	detailed, least := map[string]bool{}, 1<<30
	for _, d := range ep.Details {
		detailed[d.Key], least = true, min(least, d.Failures)
		if len(d.History) == 0 {
			t.Errorf("detail %s: no history", d.Key)
		}
	}
	for _, k := range ep.Keys {
		if !detailed[k.Key] && k.Failures > least {
			t.Errorf("%s (%d failures) has no detail, but a key with %d failures has", k.Key, k.Failures, least)
		}
	}
	if !f.TakenAt.Equal(now) {
		t.Errorf("takenAt: got %v, want the server's %v", f.TakenAt, now)
	}

	var buf bytes.Buffer
	if err := snapshot.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind": "BackoffSnapshot"`, `"formatVersion": 1`, `"takenAt": "2026-11-30T10:00:00Z"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("file lacks %s", want)
		}
	}
	back, err := snapshot.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	off := inspector.InProcessSession(nil, snapshot.Handlers(back)...)

	// The offline session answers as the live one did.
	q := inspector.KeyQuery{Q: "refused", States: []api.State{api.StateBackoff}, Sort: api.SortFailures, Limit: 7}
	want, err := s.Keys(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	got, err := off.Keys(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if e, a := keyNames(want), keyNames(got); e != a || want.Matched != got.Matched || want.Total != got.Total {
		t.Errorf("offline keys: got %s (%d/%d), want %s (%d/%d)", a, got.Matched, got.Total, e, want.Matched, want.Total)
	}
	d, err := off.Key(ctx, "", ep.Details[0].Key)
	if err != nil || len(d.History) == 0 {
		t.Errorf("offline key %s: %v, %d attempts; want its history", ep.Details[0].Key, err, len(d.History))
	}
	// Error groups: the server's, over any states and filters, though the
	// file holds only messages and the groups of all states.
	for _, f := range []api.Filter{{}, {States: []api.State{api.StateBackoff}}, {States: []api.State{api.StateIdle}},
		{Q: "fail-00001"}, {Error: "~^[a-z]"}, {Q: "default/", Error: "nothing like it"}} {
		want, err := s.Errors(ctx, "", f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := off.Errors(ctx, "widget", f)
		if err != nil {
			t.Fatal(err)
		}
		if f.Q == "" && f.Error == "" && f.States == nil && len(got.Groups) != 2 {
			t.Errorf("offline errors: %s; want two groups, the server's fingerprints", groupsText(got))
		}
		if e, a := groupsText(want), groupsText(got); e != a || want.Matched != got.Matched {
			t.Errorf("offline errors %+v: %s (%d matched), want %s (%d)", f, a, got.Matched, e, want.Matched)
		}
	}
	ov, err := off.Overview(ctx)
	if err != nil || !ov.ReadOnly() {
		t.Errorf("offline overview: %v, read-only %v; want read-only", err, ov != nil && ov.ReadOnly())
	}
	if _, err := off.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"default/fail-00001"}}); !inspector.IsForbidden(err) {
		t.Errorf("offline forget: error %v, want 403", err)
	}
	if _, err := off.Keys(ctx, inspector.KeyQuery{Q: "~("}); err == nil || !strings.Contains(err.Error(), `parameter "q"`) {
		t.Errorf("offline keys -q '~(': error %v, want one naming the parameter", err)
	}
	if _, err := off.Keys(ctx, inspector.KeyQuery{Controller: "nope"}); err == nil || !strings.Contains(err.Error(), "known: widget") {
		t.Errorf("offline keys --controller nope: error %v, want the known controllers", err)
	}
}

func keyNames(l *inspector.KeyList) string {
	var b strings.Builder
	for _, k := range l.Items {
		b.WriteString(k.Key.Key + " ")
	}
	return b.String()
}

func groupsText(l *api.ErrorGroupList) string {
	var b strings.Builder
	for _, g := range l.Groups {
		fmt.Fprintf(&b, "[%s %q %d] ", g.Controller, g.Fingerprint, g.Count)
	}
	return b.String()
}

// valid is the smallest snapshot Read takes: 92 bytes.
const valid = `{"kind":"BackoffSnapshot","formatVersion":1,"wireAPI":"v1","takenAt":"2026-12-03T10:00:00Z"}`

// mariadbLog is controller-runtime's zap JSON, as mariadb-operator wrote it
// (the log reader's fixture, from the operator's issue): two lines of it.
var mariadbLog = firstLines("../logs/testdata/batch6/135-mariadb-operator-json-reconciler-error-connection.log", 2)

// klogLog is klog's text, as cloud-provider-openstack wrote it (the log
// reader's fixture).
var klogLog = firstLines("../logs/testdata/batch6/131-cloud-provider-openstack-klog-error-processing-service-events.log", 2)

// firstLines is the first n lines of a file, or a marker that fails the test.
func firstLines(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "missing fixture " + path
	}
	lines := strings.SplitAfter(string(b), "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

func TestReadRefuses(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"items":[]}`, `kind is ""`},
		{`{"kind":"BackoffSnapshot","formatVersion":2,"wireAPI":"v1"}`, "format version 2"},
		{`{"kind":"BackoffSnapshot","formatVersion":1,"wireAPI":"v2"}`, `wire API "v2"`},
		{`not json`, "not a snapshot"},
		// A snapshot cut short says so, with where it stops, not "unexpected EOF".
		{`{"kind":"BackoffSnapshot","formatVersion":1,"wireAPI":"v1","endpoints":[{"name":"demo/ctrl-0","ke`, "truncated: it ends after 97 bytes, in the middle of its JSON"},
		{``, "empty: no snapshot in it"},
		// Issue #32: what follows a snapshot is refused, not ignored.
		{valid + `{"kind":"BackoffSnapshot"}`, "a second JSON document follows the snapshot at byte 92"},
		{valid + "\n\n" + valid, "a second JSON document follows the snapshot"},
		{valid + " garbage", "trailing data after the snapshot, which ends at byte 92"},
		{valid + `]`, "trailing data after the snapshot"},
		// A zero takenAt: "taken at 0001-01-01 … 106751d23h before".
		{`{"kind":"BackoffSnapshot","formatVersion":1,"wireAPI":"v1","endpoints":[]}`, "no takenAt"},
		{`{"kind":"BackoffSnapshot","formatVersion":1,"wireAPI":"v1","takenAt":"0001-01-01T00:00:00Z"}`, "no takenAt"},
		// The first document decides: what follows something that is not a
		// snapshot is not "a second document" after one.
		{`{"items":[]}` + "\n" + `{"items":[]}`, `not a snapshot: kind is ""`},
		// A log given where a snapshot goes (diff s1.json demo.log) is said a log.
		{mariadbLog, "not a snapshot (it looks like a log)"},
		{mariadbLog + "\n" + mariadbLog, "not a snapshot (it looks like a log)"},
		{klogLog, "not a snapshot (it looks like a log)"},
	} {
		if _, err := snapshot.Read(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%s): error %v, want one containing %q", tt.in, err, tt.want)
		}
	}
}

// TestReadLimit: a file past the bound is refused with the bound, whether
// the bound falls in its JSON or in white space after it (issue #32: a
// header and 512 MB of white space took 1.65 GB); white space within it
// is not refused.
func TestReadLimit(t *testing.T) {
	if _, err := snapshot.ReadLimit(strings.NewReader(valid+"\n"), int64(len(valid)+1)); err != nil {
		t.Errorf("ReadLimit of a snapshot within the bound: %v", err)
	}
	for _, in := range []string{valid, valid + strings.Repeat(" ", 4096), `{"kind":"BackoffSnapshot",` + strings.Repeat(" ", 1<<20) + `"formatVersion":1}`} {
		_, err := snapshot.ReadLimit(strings.NewReader(in), 80)
		tl, ok := errors.AsType[*snapshot.TooLargeError](err)
		if !ok || tl.Limit != 80 || !strings.Contains(err.Error(), "larger than 80 bytes") {
			t.Errorf("ReadLimit(%d bytes, 80): %v; want a TooLargeError naming the 80-byte bound", len(in), err)
		}
	}
	if e, a := "256 MiB", snapshot.SizeText(snapshot.DefaultMaxBytes); e != a {
		t.Errorf("SizeText(DefaultMaxBytes) = %q, want %q", a, e)
	}
}

// FuzzRead: whatever the bytes, Read refuses them or returns a snapshot it
// vouches for (its kind, a version it reads, a takenAt), which diffs
// against itself without a change and without a panic.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{valid, valid + valid, valid + " x", "", "{", "[]", "null",
		`{"kind":"BackoffSnapshot","formatVersion":1,"wireAPI":"v1","takenAt":"2026-12-03T10:00:00Z","endpoints":[{"name":"p","keys":[{"controller":"c","key":"k","state":"backoff","failures":2}]},{"name":"q","error":"x"}]}`,
		`{"kind":"BackoffSnapshot","formatVersion":1,"wireAPI":"v1","takenAt":"0001-01-01T00:00:00Z"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := snapshot.ReadLimit(bytes.NewReader(in), 1<<16)
		if err != nil {
			if err.Error() == "" {
				t.Errorf("Read(%q): an empty error", in)
			}
			return
		}
		if s.Kind != snapshot.Kind || s.FormatVersion != snapshot.FormatVersion || s.TakenAt.IsZero() {
			t.Errorf("Read(%q) took kind %q, version %d, takenAt %v", in, s.Kind, s.FormatVersion, s.TakenAt)
		}
		if c := snapshot.Diff(s, s); len(c) != 0 {
			t.Errorf("Read(%q): diffed against itself, %d changes", in, len(c))
		}
		_ = snapshot.Unknown(s, s)
	})
}
