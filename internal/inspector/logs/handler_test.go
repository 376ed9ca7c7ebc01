package logs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
)

// TestSession reads a store through inspector.Session, as top, get,
// describe and the error groups do.
func TestSession(t *testing.T) {
	const refused, invalid = "dial tcp: connection refused", "terminal error: spec.size: Invalid value"
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(3020 * time.Millisecond))})
	for _, r := range []Record{
		rec(ErrorLine, "ns/a", 0, refused), rec(ErrorLine, "ns/a", 3*time.Second, refused),
		rec(ErrorLine, "ns/b", 0, refused),
		rec(ErrorLine, "ns/c", 0, invalid),
	} {
		s.Add(r)
	}
	sess := inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs: test", Handler: s.Handler()})
	defer sess.Close()
	ctx := context.Background()

	ov, err := sess.Overview(ctx)
	if err != nil {
		t.Fatalf("Overview: %v", err)
	}
	c := ov.Controller("c")
	if c == nil || c.Keys != 3 || c.Counts[api.StateBackoff] != 1 || c.Counts[api.StateUnknown] != 1 || c.Counts[api.StateFailed] != 1 {
		t.Fatalf("controller = %+v, want 3 keys: 1 backoff (a), 1 unknown (b), 1 failed (c)", c)
	}
	if !ov.ReadOnly() {
		t.Errorf("ReadOnly = false, want true: a log cannot forget")
	}

	list, err := sess.Keys(ctx, inspector.KeyQuery{Sort: api.SortFailures, States: []api.State{api.StateBackoff, api.StateUnknown}})
	if err != nil {
		t.Fatalf("Keys: %v", err)
	}
	var keys []string
	for _, k := range list.Items {
		keys = append(keys, k.Key.Key)
	}
	if got, want := strings.Join(keys, ","), "ns/a,ns/b"; got != want || list.Total != 3 || list.Matched != 2 {
		t.Errorf("keys = %s (total %d, matched %d), want %s (3, 2)", got, list.Total, list.Matched, want)
	}

	d, err := describe.Describe(ctx, sess, "", "ns/a", nil)
	if err != nil {
		t.Fatalf("Describe: %v", err)
	}
	if d.Key.Failures != 2 || len(d.Key.History) != 2 || d.Controller == nil || !d.Source.Logged() {
		t.Errorf("describe: failures %d, history %d, controller %+v, source %+v; want 2, 2, from logs", d.Key.Failures, len(d.Key.History), d.Controller, d.Source)
	}

	groups, err := sess.Errors(ctx, "", api.Filter{})
	if err != nil {
		t.Fatalf("Errors: %v", err)
	}
	if len(groups.Groups) != 2 || groups.Groups[0].Count != 2 || groups.Groups[0].Message != refused || groups.Matched != 3 {
		t.Errorf("groups = %+v, want %q ×2 first, 3 matched", groups.Groups, refused)
	}
	// The user's filter (the key or its error) and an error pattern apply
	// to the groups, as the instrument applies them.
	for _, tt := range []struct {
		f    api.Filter
		want int
	}{{api.Filter{Q: "ns/a"}, 1}, {api.Filter{Error: "refused"}, 2}, {api.Filter{Q: "ns/", Error: "~^nothing"}, 0}} {
		g, err := sess.Errors(ctx, "", tt.f)
		if err != nil || g.Matched != tt.want {
			t.Errorf("groups of %+v: %v, %d matched; want %d", tt.f, err, g.Matched, tt.want)
		}
	}
	if l, err := sess.Keys(ctx, inspector.KeyQuery{Error: "refused"}); err != nil || l.Matched != 2 {
		t.Errorf("keys whose error matches refused: %v, %d; want 2", err, l.Matched)
	}

	if _, err := sess.Key(ctx, "", "ns/zzz"); err == nil || !strings.Contains(err.Error(), "not in the log") {
		t.Errorf("unknown key: err = %v, want one saying it is not in the log", err)
	}
	_, err = sess.Forget(ctx, api.ForgetRequest{Controller: "c", Keys: []string{"ns/a"}})
	if !inspector.IsForbidden(err) || !strings.Contains(err.Error(), "kick") {
		t.Errorf("forget: err = %v, want a 403 that points to kick", err)
	}
	if _, err := sess.Keys(ctx, inspector.KeyQuery{Q: "~("}); err == nil || !strings.Contains(err.Error(), `"q"`) {
		t.Errorf("bad regexp: err = %v, want one naming q", err)
	}
}

// A log with no reconcile line is said to be a log by its source, whatever
// the name its endpoint is given: looking a key up in it says the log holds
// no keys, not that an endpoint has no controllers yet.
func TestFindKeyInALogWithoutKeys(t *testing.T) {
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(t0)})
	if _, _, err := s.Read(context.Background(), strings.NewReader("I1203 09:00:00.000000       1 main.go:10] starting manager\n")); err != nil {
		t.Fatal(err)
	}
	sess := inspector.InProcessSession(nil, inspector.NamedHandler{Name: "my.log", Handler: s.Handler()})
	defer sess.Close()
	_, err := sess.FindKey(context.Background(), "demo/x")
	if nf := (*inspector.KeyNotFoundError)(nil); !errors.As(err, &nf) || !nf.Log ||
		!strings.Contains(err.Error(), "the log my.log holds no keys of any controller") {
		t.Errorf("FindKey = %v; want a log's key-not-found naming my.log", err)
	}
}
