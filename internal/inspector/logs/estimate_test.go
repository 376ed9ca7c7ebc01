package logs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestBucketSim replays client-go's DefaultControllerRateLimiter bucket
// (rate.NewLimiter(10, 100)): a burst of 100 passes, the 101st waits for
// one token (100ms), and a second refills 10.
func TestBucketSim(t *testing.T) {
	s := bucketSim{b: DefaultBucket}
	for i := range 100 {
		if d := s.reserve(t0); d != 0 {
			t.Fatalf("reserve %d of the burst: %v, want 0", i+1, d)
		}
	}
	for i, want := range []time.Duration{100 * time.Millisecond, 200 * time.Millisecond} {
		if d := s.reserve(t0); d != want {
			t.Errorf("reserve %d: %v, want %v", 101+i, d, want)
		}
	}
	// -2 tokens at t0; 1s later 8, of which this takes one.
	if d := s.reserve(t0.Add(time.Second)); d != 0 {
		t.Errorf("reserve 1s later: %v, want 0", d)
	}
	if got := s.tokensAt(t0.Add(time.Second)); got != 7 {
		t.Errorf("tokens = %v, want 7", got)
	}
	if got := s.tokensAt(t0.Add(time.Hour)); got != 100 {
		t.Errorf("tokens an hour later = %v, want the burst, 100", got)
	}
}

// outageRecords is a classic queue's mass failure as its log shows it,
// worked out by hand from client-go's max(exponential 5ms.., bucket 10/100):
// 100 keys fail at t0 (the bucket's burst: 5ms each); they fail again at
// t0+5ms, when the bucket holds the 0.05 token of those 5ms, so key k waits
// (k+1)·100ms−5ms; they fail a third time at t0+(k+1)·100ms, each taking
// the token that just came back, 100 behind: 10s each.
func outageRecords() []Record {
	var rs []Record
	name := func(k int) string { return fmt.Sprintf("ns/k%03d", k) }
	for k := range 100 {
		rs = append(rs, rec(ErrorLine, name(k), 0, "connection refused"))
	}
	for k := range 100 {
		rs = append(rs, rec(ErrorLine, name(k), 5*time.Millisecond, "connection refused"))
	}
	for k := range 100 {
		rs = append(rs, rec(ErrorLine, name(k), time.Duration(k+1)*100*time.Millisecond, "connection refused"))
	}
	return rs
}

// TestStoreReadsTheTokenBucket: in a mass failure the bucket, not 5ms·2^n,
// sets the delays, and the log's pace says so: every key backs off 10s
// (never unknown 20ms after its third failure, as the exponential alone
// would have it), and the controller's limiter shows an empty bucket.
func TestStoreReadsTheTokenBucket(t *testing.T) {
	// Now is when the first key's retry falls due.
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(10*time.Second + 100*time.Millisecond))})
	for _, r := range outageRecords() {
		s.Add(r)
	}
	for k := range 100 {
		d, err := s.Key("c", fmt.Sprintf("ns/k%03d", k))
		if err != nil {
			t.Fatal(err)
		}
		got := d.Key
		at := t0.Add(time.Duration(k+1) * 100 * time.Millisecond)
		if got.State != api.StateBackoff || got.Delay.Duration != 10*time.Second || got.DelaySource != api.SourceBucket ||
			!got.NextRetryAt.Equal(at.Add(10*time.Second)) || got.Failures != 3 || !got.FirstFailureAt.Equal(t0) {
			t.Fatalf("%s: %s, %d failures since %v, delay %v from %q, next %v; want backoff, 3 since %v, 10s from the bucket, next %v",
				got.Key, got.State, got.Failures, got.FirstFailureAt, got.Delay.Duration, got.DelaySource, got.NextRetryAt, t0, at.Add(10*time.Second))
		}
	}
	c := s.Controllers().Controllers[0]
	if len(c.Limiter.Components) != 2 || c.Limiter.Components[1].Name != api.SourceBucket || *c.Limiter.Components[1].Tokens >= 1 ||
		!strings.Contains(c.Limiter.Description, "the token bucket is deciding") {
		t.Errorf("limiter %+v; want the exponential and an empty bucket, saying the bucket is deciding", c.Limiter)
	}
}

// TestStoreKeepsTheExponentialWithoutBucketPace: the same burst on a
// priority queue (no bucket) retries at 5ms·2^n; the pace votes the
// bucket down, and each key's delays stay the exponential's.
func TestStoreKeepsTheExponentialWithoutBucketPace(t *testing.T) {
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(time.Second))})
	// 150 keys, each failing at 0, 5ms, 15ms, 35ms: 600 lines in 35ms,
	// far past what a 10 qps bucket would let through.
	for _, at := range []time.Duration{0, 5, 15, 35} {
		for k := range 150 {
			s.Add(rec(ErrorLine, fmt.Sprintf("ns/k%03d", k), at*time.Millisecond, "boom"))
		}
	}
	d, err := s.Key("c", "ns/k149")
	if err != nil {
		t.Fatal(err)
	}
	if k := d.Key; k.Delay.Duration != 40*time.Millisecond || k.DelaySource != api.SourceItemExponential {
		t.Errorf("delay %v from %q, want 40ms from the exponential", k.Delay.Duration, k.DelaySource)
	}
	if c := s.Controllers().Controllers[0]; len(c.Limiter.Components) != 1 {
		t.Errorf("limiter %+v; want the exponential alone", c.Limiter)
	}
}

// TestStoreOwnLimiterHasNoBucket: a controller whose project sets its own
// limiter, a per-item exponential alone (cert-manager's 5s..5m, from its
// pkg/controller/util.go), keeps it whatever the pace of its retries. Here
// 300 keys fail at once and the last 130 retry when a 10 qps bucket would
// have let them ((k−99)·100ms, 7s to 20s: a few busy workers can space
// retries so): the pace votes for a bucket, but this controller has none.
func TestStoreOwnLimiterHasNoBucket(t *testing.T) {
	for _, own := range []bool{false, true} {
		s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(30 * time.Second))})
		add := func(r Record) {
			if own {
				r.Limiter = Limiter{BaseDelay: 5 * time.Second, MaxDelay: 5 * time.Minute}
			}
			s.Add(r)
		}
		for k := range 300 {
			add(rec(ErrorLine, fmt.Sprintf("ns/k%03d", k), 0, "connection refused"))
		}
		for k := 170; k < 300; k++ {
			add(rec(ErrorLine, fmt.Sprintf("ns/k%03d", k), time.Duration(k-99)*100*time.Millisecond, "connection refused"))
		}
		l := s.Controllers().Controllers[0].Limiter
		if want := map[bool]int{false: 2, true: 1}[own]; len(l.Components) != want {
			t.Errorf("own limiter %v: limiter %+v; want %d components (the bucket %s)", own, l, want, map[bool]string{false: "voted in", true: "never"}[own])
		}
	}
}

// TestStoreClientGoQueue: a client-go work queue's line says its limiter:
// client-go's DefaultControllerRateLimiter, bucket included, without a vote.
func TestStoreClientGoQueue(t *testing.T) {
	s := NewStore(Options{})
	r := rec(ErrorLine, "ns/a", 0, "boom")
	r.ClientGoQueue = true
	s.Add(r)
	l := s.Controllers().Controllers[0].Limiter
	if len(l.Components) != 2 || l.Components[1].QPS != 10 || l.Components[1].Burst != 100 || !strings.Contains(l.Description, "DefaultControllerRateLimiter") {
		t.Errorf("limiter %+v; want client-go's DefaultControllerRateLimiter", l)
	}
	if len(l.Components) == 2 && !l.Components[1].Estimated {
		t.Errorf("bucket %+v not marked estimated: its tokens are replayed over the log, not read", l.Components[1])
	}
}

// TestStoreKeySpacing: a key failing every 10s, whatever limiter chose it,
// keeps an expected spacing of 10s: backoff 5s after its last failure,
// not unknown (the exponential alone expects it 40ms later).
func TestStoreKeySpacing(t *testing.T) {
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(35 * time.Second))})
	for _, at := range []time.Duration{0, 10, 20, 30} {
		s.Add(rec(ErrorLine, "ns/a", at*time.Second, "boom"))
	}
	d, _ := s.Key("c", "ns/a")
	if k := d.Key; k.State != api.StateBackoff || k.Delay.Duration != 10*time.Second || !k.NextRetryAt.Equal(t0.Add(40*time.Second)) || k.Failures != 4 {
		t.Errorf("%s after %d failures, delay %v, next %v; want backoff after 4, 10s, next %v", k.State, k.Failures, k.Delay.Duration, k.NextRetryAt, t0.Add(40*time.Second))
	}
}

// TestStoreLateRetriesKeepTheExponential: retries that come a few tens of
// milliseconds late (a busy worker, a loaded machine) are still the default
// limiter's 5ms·2^n, not "a limiter the log does not name".
func TestStoreLateRetriesKeepTheExponential(t *testing.T) {
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(time.Second))})
	for _, at := range []time.Duration{0, 50, 100, 170} { // due after 5, 10 and 20ms
		s.Add(rec(ErrorLine, "ns/a", at*time.Millisecond, "boom"))
	}
	d, _ := s.Key("c", "ns/a")
	if k := d.Key; k.Delay.Duration != 40*time.Millisecond || k.DelaySource != api.SourceItemExponential {
		t.Errorf("delay %v (%s); want 40ms (item-exponential, 5ms·2^3)", k.Delay.Duration, k.DelaySource)
	}
}

// TestStoreStatedRetry: a line that states its next retry (Flux's "next
// try in 1m0s") sets it exactly: not estimated, until a line that does not.
func TestStoreStatedRetry(t *testing.T) {
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(30 * time.Second))})
	r := rec(ErrorLine, "ns/a", 0, "kustomize build failed")
	r.RetryIn = time.Minute
	s.Add(r)
	d, _ := s.Key("c", "ns/a")
	if k := d.Key; k.Estimated || !k.NextRetryAt.Equal(t0.Add(time.Minute)) || k.Delay.Duration != time.Minute || k.State != api.StateBackoff {
		t.Errorf("estimated %v, %s, next %v, delay %v; want exact, backoff, next %v, 1m", k.Estimated, k.State, k.NextRetryAt, k.Delay.Duration, t0.Add(time.Minute))
	}
	s.Add(rec(ErrorLine, "ns/a", time.Minute, "kustomize build failed"))
	if d, _ := s.Key("c", "ns/a"); !d.Key.Estimated {
		t.Errorf("a failure with no stated retry: estimated false, want true")
	}
}

// TestStoreTimeUnknown: a record whose time could not be read (zero At)
// counts, but never puts year 1 anywhere: the key's times stay absent, its
// retry unknown, and it is not "quiet past its retry".
func TestStoreTimeUnknown(t *testing.T) {
	s := NewStore(Options{})
	r := rec(ErrorLine, "ns/a", 0, "boom")
	r.At = time.Time{}
	s.Add(r)
	s.Add(r)
	d, err := s.Key("c", "ns/a")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(d)
	if strings.Contains(string(b), "0001-01-01") {
		t.Errorf("a year-1 time on the wire: %s", b)
	}
	if k := d.Key; k.Failures != 2 || k.State != api.StateBackoff || !k.NextRetryAt.IsZero() || !k.FirstFailureAt.IsZero() || k.LastError == nil {
		t.Errorf("%s after %d failures, next %v, since %v, last error %v; want backoff after 2, times unknown", k.State, k.Failures, k.NextRetryAt, k.FirstFailureAt, k.LastError)
	}
	// Beside lines with times: the known ones stay, the unknown one moves none.
	s.Add(rec(ErrorLine, "ns/b", 0, "boom"))
	s.Add(r)
	b, _ = json.Marshal(s.Controllers())
	if strings.Contains(string(b), "0001-01-01") || !s.Stats().First.Equal(t0) {
		t.Errorf("a year-1 time in v1/controllers or the stats (first %v): %s", s.Stats().First, b)
	}
}

// TestLimiterGuessHysteresis: votes about even do not flip the verdict
// back and forth (each flip re-reads every key of the controller).
func TestLimiterGuessHysteresis(t *testing.T) {
	var g limiterGuess
	bucketVote := func() { g.vote(0, 10*time.Second, 10*time.Second) }
	expVote := func() { g.vote(0, 10*time.Second, 0) }
	for range minVotes {
		bucketVote()
	}
	if !g.bucket() {
		t.Fatalf("%d votes for the bucket, none against: not read as a bucket", minVotes)
	}
	flips, was := 0, g.bucket()
	for range 1000 {
		expVote()
		bucketVote()
		if g.bucket() != was {
			flips++
			was = g.bucket()
		}
	}
	if flips != 0 {
		t.Errorf("even votes flipped the verdict %d times", flips)
	}
	for range 3000 {
		expVote()
	}
	if g.bucket() {
		t.Errorf("%d votes against %d: still read as a bucket", g.expVotes, g.bucketVotes)
	}
}

// TestStoreSteadySpacingCapsTheEstimate: a key failing every 60s exactly
// for twenty failures is past its limiter's cap (or requeued on a timer):
// the default limiter's doubling (1000s after 20) is not what the log
// shows; the estimate is the steady spacing.
func TestStoreSteadySpacingCapsTheEstimate(t *testing.T) {
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(19*time.Minute + 30*time.Second))})
	for i := range 20 {
		s.Add(rec(ErrorLine, "ns/a", time.Duration(i)*time.Minute, "boom"))
	}
	d, _ := s.Key("c", "ns/a")
	if k := d.Key; k.State != api.StateBackoff || k.Delay.Duration != time.Minute || k.DelaySource != api.SourceSpacing {
		t.Errorf("%s, delay %v (%s); want backoff, 1m0s (spacing)", k.State, k.Delay.Duration, k.DelaySource)
	}
}

// TestNamespaceControllerEveryMinute: kube-controller-manager's namespace
// controller, its deletion blocked, logs a failure every 60s exactly (its
// limiter's cap): read under its own name, its next retry a minute after
// the last, never sooner than its spacing, never 5m27s.
func TestNamespaceControllerEveryMinute(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		at := time.Date(2026, 12, 3, 12, 44, 26, 0, time.UTC).Add(time.Duration(i) * time.Minute)
		fmt.Fprintf(&b, `%sZ stderr F E1203 %s.838112   23702 namespace_controller.go:164] "Deletion of namespace failed" err="unable to retrieve the complete list of server APIs: broken.example.com/v1beta1: stale GroupVersion discovery: broken.example.com/v1beta1" logger="UnhandledError" namespace="stuck"`+"\n",
			at.Format("2006-01-02T15:04:05.000000000"), at.Format("15:04:05"))
	}
	last := time.Date(2026, 12, 3, 12, 55, 26, 0, time.UTC)
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(last.Add(10 * time.Second))})
	if _, _, err := s.Read(context.Background(), strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	d, err := s.Key("namespace-controller", "stuck")
	if err != nil {
		t.Fatal(err)
	}
	if k := d.Key; k.Failures != 12 || k.Delay.Duration < 59*time.Second || k.Delay.Duration > 61*time.Second {
		t.Errorf("%d failures, delay %v (%s); want 12, about 1m0s", k.Failures, k.Delay.Duration, k.DelaySource)
	}
}
