package logs

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestErrorRate: the sampler's signature, and only it, says a log is
// sampled; a rate alone never does, and a second the sampler could not
// have written says it is not.
func TestErrorRate(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	// burst is n lines every gap from at.
	burst := func(at time.Time, n int, gap time.Duration) []time.Time {
		out := make([]time.Time, n)
		for i := range out {
			out[i] = at.Add(time.Duration(i) * gap)
		}
		return out
	}
	cat := func(parts ...[]time.Time) []time.Time { return slices.Concat(parts...) }
	hundred := api.SampledLines
	tests := []struct {
		name  string
		times []time.Time
		want  time.Time
	}{
		{"99 lines in a second", burst(t0, hundred-1, time.Millisecond), time.Time{}},
		{"300 keys failing at once, every line written", burst(t0, 3*hundred, time.Millisecond), time.Time{}},
		{"one burst of exactly 100, then quiet", burst(t0, hundred, time.Millisecond), time.Time{}},
		// 1,000 entries a millisecond apart through zap's sampler: the first
		// 100, then the 200th, 300th, … 900th.
		{"the first 100 of a second, then 1 in 100", cat(burst(t0, hundred, time.Millisecond), burst(t0.Add(199*time.Millisecond), 8, 100*time.Millisecond)), t0},
		// 150 entries a second for two seconds: 100 written of each.
		{"two seconds cut at 100", cat(burst(t0, hundred, 6*time.Millisecond), burst(t0.Add(time.Second), hundred, 6*time.Millisecond)), t0},
		{"a second cut at 100, then a quiet one", cat(burst(t0, hundred, 6*time.Millisecond), burst(t0.Add(3*time.Second), hundred, 6*time.Millisecond)), time.Time{}},
		{"a slow start, then the signature", cat(burst(t0, 50, time.Second), burst(t0.Add(time.Minute), hundred, time.Millisecond),
			burst(t0.Add(time.Minute+199*time.Millisecond), 5, 100*time.Millisecond)), t0.Add(time.Minute)},
		{"the signature, but a later second the sampler could not write", cat(burst(t0, hundred, time.Millisecond),
			burst(t0.Add(199*time.Millisecond), 8, 100*time.Millisecond), burst(t0.Add(time.Minute), 3*hundred, time.Millisecond)), time.Time{}},
		{"a burst within a millisecond, then 1 in 100", cat(burst(t0, hundred, 0), burst(t0.Add(3*time.Millisecond), 2, 3*time.Millisecond)), t0},
		// Written by TestSampledLogIsFlagged on a loaded machine: the
		// logger stalled 4ms before the 96th line, which moved the mean
		// gap of the first 100 (to 50µs), not their median.
		{"a stall among the first 100, then 1 in 100", cat(burst(t0.Add(191*time.Millisecond), 31, 0), burst(t0.Add(192*time.Millisecond), 64, 0),
			burst(t0.Add(196*time.Millisecond), 5, 0), burst(t0.Add(197*time.Millisecond), 2, 0)), t0.Add(191 * time.Millisecond)},
		{"a stall after the 100th of 300 lines, every line written", cat(burst(t0, 150, 10*time.Microsecond),
			burst(t0.Add(30*time.Millisecond), 150, 10*time.Microsecond)), time.Time{}},
		// 102 lines in one millisecond cannot show a pace either way; a
		// later second can.
		{"a sampled burst in one millisecond, then the signature", cat(burst(t0.Add(time.Millisecond), hundred+2, 0),
			burst(t0.Add(time.Minute), hundred, time.Millisecond), burst(t0.Add(time.Minute+199*time.Millisecond), 5, 100*time.Millisecond)), t0.Add(time.Minute)},
		{"300 lines within 3ms, every line written", cat(burst(t0, hundred, 10*time.Microsecond), burst(t0.Add(time.Millisecond), 2*hundred, 10*time.Microsecond)), time.Time{}},
		// Whole-second stamps (controller-runtime's RFC 3339) hide the pace.
		{"whole seconds: 300 keys failing at once", burst(t0, 3*hundred, 0), time.Time{}},
		{"whole seconds: the sampled 102 of 300 at once", burst(t0, hundred+2, 0), time.Time{}},
		{"whole seconds: two at the sampler's ceiling", cat(burst(t0, hundred+3, 0), burst(t0.Add(time.Second), hundred+4, 0)), t0},
		// Written by TestSampledBurstWithRetriesIsFlagged: 2,700 failures
		// in about two seconds; a tick spans two stamps, its rest sparse.
		{"whole seconds: two ticks at the ceiling, the first over two stamps", cat(burst(t0, hundred+17, 0), burst(t0.Add(time.Second), 6, 0),
			burst(t0.Add(2*time.Second), hundred+2, 0)), t0},
		{"whole seconds: at the ceiling, a quiet second between", cat(burst(t0, hundred+3, 0), burst(t0.Add(2*time.Second), hundred+4, 0)), time.Time{}},
		{"whole seconds: a steady 150 a second", cat(burst(t0, 150, 0), burst(t0.Add(time.Second), 150, 0), burst(t0.Add(2*time.Second), 150, 0)), time.Time{}},
		{"whole seconds: at the ceiling, then more than a sampler writes", cat(burst(t0, hundred, 0), burst(t0.Add(time.Second), hundred, 0),
			burst(t0.Add(time.Minute), 4*hundred, 0)), time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r errorRate
			for _, at := range tt.times {
				r.add(at)
			}
			if got := r.at(); !got.Equal(tt.want) {
				t.Errorf("sampled at %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSampledLogIsFlagged runs a real controller-runtime controller whose
// production zap logger drops lines (300 keys failing at once: it writes
// 102), and checks that the store says its counts are low where the times
// show the sampler's pace (epoch and ISO 8601 stamps); with whole-second
// stamps one burst cannot tell, and it says nothing; with every line
// logged (V(5)), it says nothing. The logger's clock steps 10µs an entry:
// the sampler counts its seconds by the entries' times, and on the wall
// clock how fast 300 reconciles fail is up to the machine.
func TestSampledLogIsFlagged(t *testing.T) {
	const keys = 3 * api.SampledLines
	for _, tt := range []struct {
		name    string
		encode  zapcore.TimeEncoder
		verbose bool
		flagged bool
	}{
		{"zap-json-epoch", zapcore.EpochTimeEncoder, false, true},      // nanoseconds
		{"zap-json-iso8601", zapcore.ISO8601TimeEncoder, false, true},  // milliseconds
		{"zap-json-rfc3339", zapcore.RFC3339TimeEncoder, false, false}, // whole seconds
		{"zap-json-rfc3339", zapcore.RFC3339TimeEncoder, true, false},
	} {
		t.Run(fmt.Sprintf("%s/verbose=%v", tt.name, tt.verbose), func(t *testing.T) {
			clk := &stepClock{now: time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC), step: 10 * time.Microsecond}
			f := loggerFormat{name: tt.name, new: func(w *logBuffer, v bool) logr.Logger {
				// controller-runtime's production logger (sampled unless V(5)), on clk.
				return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), zapLevel(v),
					func(o *crzap.Options) { o.TimeEncoder = tt.encode }, crzap.RawZapOpts(zap.WithClock(clk)))
			}}
			rc := startReal(t, f, tt.verbose, false, func(string, int) (reconcile.Result, error) {
				return reconcile.Result{}, reconcile.TerminalError(errRefused) // one line per key, no retries
			})
			for i := range keys {
				rc.send(fmt.Sprintf("default/w%d", i))
			}
			rc.waitCalls(keys)
			lines := rc.buf.lines()
			if tt.verbose {
				// Every error is logged, after its reconcile returns.
				lines = rc.waitLines("every error", func(l []string) bool { return countLines(l, msgError) == keys })
			}
			logged := countLines(lines, msgError)
			s := NewStore(Options{})
			for _, l := range lines {
				if r, ok := Parse([]byte(l), time.Now()); ok {
					s.Add(r)
				}
			}
			st := s.Stats()
			cl := s.Controllers()
			if cs := cl.Controllers; len(cs) != 1 {
				t.Fatalf("%d controllers, want 1", len(cs))
			}
			if !tt.verbose && logged >= keys {
				t.Fatalf("all %d errors were logged: the logger did not sample, the test proves nothing", keys)
			}
			if !cl.Source.SampledAt.Equal(st.SampledAt) {
				t.Errorf("sampledAt %v, the list source's %v; want them equal", st.SampledAt, cl.Source.SampledAt)
			}
			if got := !st.SampledAt.IsZero(); got != tt.flagged {
				t.Errorf("%d of %d errors logged, sampledAt %v; want flagged %v", logged, keys, st.SampledAt, tt.flagged)
			}
			checkUndercounted(t, s, st.SampledAt)
		})
	}
}

// stepClock is a zap clock whose every reading is step after the last.
type stepClock struct {
	mu   sync.Mutex
	now  time.Time
	step time.Duration
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(c.step)
	return c.now
}

func (c *stepClock) NewTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }

// TestSampledCeilingInWholeSeconds drives zap's own sampler, configured as
// controller-runtime's production logger configures it (1s, 100, 100), and
// its RFC 3339 encoder, with entries at set times: a steady failure rate,
// sampled, shows the sampler's ceiling second after second and is flagged;
// the same rate written unsampled is not, nor is a single burst sampled.
func TestSampledCeilingInWholeSeconds(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	steady := func(perSecond, seconds int) []time.Time {
		var out []time.Time
		for i := range perSecond * seconds {
			out = append(out, t0.Add(time.Duration(i)*time.Second/time.Duration(perSecond)))
		}
		return out
	}
	for _, tt := range []struct {
		name    string
		entries []time.Time
		sample  bool
		flagged bool
	}{
		{"400 a second for 5s, sampled", steady(400, 5), true, true},
		{"150 a second for 5s, sampled", steady(150, 5), true, true},
		{"400 a second for 5s, unsampled", steady(400, 5), false, false},
		{"300 at once, sampled", steady(300*1000, 1)[:300], true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf strings.Builder
			enc := zap.NewProductionEncoderConfig()
			enc.EncodeTime = zapcore.RFC3339TimeEncoder
			core := zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.AddSync(&buf), zapcore.DebugLevel)
			if tt.sample {
				core = zapcore.NewSamplerWithOptions(core, time.Second, 100, 100)
			}
			for i, at := range tt.entries {
				ent := zapcore.Entry{Level: zapcore.ErrorLevel, Time: at, Message: msgError}
				if ce := core.Check(ent, nil); ce != nil {
					ce.Write(zap.String("controller", "widget"), zap.String("namespace", "default"), zap.String("name", fmt.Sprintf("w%d", i)),
						zap.String("reconcileID", fmt.Sprint(i)), zap.Error(errRefused))
				}
			}
			s := NewStore(Options{})
			if _, _, err := s.Read(context.Background(), strings.NewReader(buf.String())); err != nil {
				t.Fatal(err)
			}
			lines := strings.Count(buf.String(), "\n")
			if got := !s.Stats().SampledAt.IsZero(); got != tt.flagged {
				t.Errorf("%d of %d entries written; flagged %v, want %v", lines, len(tt.entries), got, tt.flagged)
			}
		})
	}
}

// TestSampledOnlyForZap: only zap's JSON can have dropped lines. Each line
// is verbatim from a public report: logrus' JSON (Argo CD, "time" and
// "msg") never samples; zap's ("ts", Karpenter after moving to
// controller-runtime's logger) may.
func TestSampledOnlyForZap(t *testing.T) {
	for _, tt := range []struct {
		source, line string
		sampled      bool
	}{
		{"argoproj/argo-cd#14184", `{"applicationset":{"Namespace":"argocd","Name":"dev-appset"},"level":"error","msg":"validation error found during application validation: application references project my-project which does not exist","time":"2023-06-23T11:00:52Z"}`, false},
		{"kubernetes-sigs/karpenter#1050", `{"level":"info","ts":"2024-03-14T10:13:26Z","logger":"controller","msg":"discovered karpenter version","version":"unspecified"}`, true},
	} {
		var f fields
		if !parseJSON([]byte(tt.line), &f) {
			t.Fatalf("%s: not read as JSON", tt.source)
		}
		if got := sampledJSON(&f); got != tt.sampled {
			t.Errorf("%s: sampled = %v, want %v", tt.source, got, tt.sampled)
		}
	}
}

// TestSampledBurstWithRetriesIsFlagged is issue #42's regression: 300 keys
// failing at once on a real controller-runtime controller, each retried by
// its queue, logged by the production zap logger, which samples: the log
// holds a fraction of the failures, and the store must say its counts are
// low. On the priority queue each key fails nine times (2,700 failed
// reconciles, about 225 lines), at the logger's default whole-second
// stamps and at milliseconds; on the classic queue, whose bucket lets 100
// retries through and then 10 a second, the burst and those 100, at
// milliseconds (whole seconds show one tick at the ceiling, which an
// unsampled burst may also fill: left unflagged). The logger's clock steps
// a millisecond an entry, so the sampler's seconds do not depend on how
// fast a loaded machine runs the reconciles; the shape the wall clock
// wrote once (117, 6 and 102 lines a stamp) is TestErrorRate's.
func TestSampledBurstWithRetriesIsFlagged(t *testing.T) {
	const keys, failures = 3 * api.SampledLines, 9
	type encoder struct {
		name   string
		encode zapcore.TimeEncoder
	}
	rfc, iso := encoder{"rfc3339", zapcore.RFC3339TimeEncoder}, encoder{"iso8601", zapcore.ISO8601TimeEncoder}
	for _, tt := range []struct {
		priority bool
		enc      encoder
		calls    int
	}{
		{true, rfc, keys * (failures + 1)},
		{true, iso, keys * (failures + 1)},
		{false, iso, keys + api.SampledLines},
	} {
		t.Run(fmt.Sprintf("priority=%v/%s", tt.priority, tt.enc.name), func(t *testing.T) {
			clk := &stepClock{now: time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC), step: time.Millisecond}
			f := loggerFormat{name: tt.enc.name, new: func(w *logBuffer, v bool) logr.Logger {
				return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), zapLevel(v),
					func(o *crzap.Options) { o.TimeEncoder = tt.enc.encode }, crzap.RawZapOpts(zap.WithClock(clk)))
			}}
			rc := startRealQueue(t, f, false, false, tt.priority, func(_ string, n int) (reconcile.Result, error) {
				if n <= failures {
					return reconcile.Result{}, errRefused
				}
				return reconcile.Result{}, nil
			})
			for i := range keys {
				rc.send(fmt.Sprintf("default/w%d", i))
			}
			rc.waitCalls(tt.calls)
			lines := rc.buf.lines()
			logged := countLines(lines, msgError)
			if logged >= tt.calls {
				t.Fatalf("%d errors logged of at least %d: the logger did not sample, the test proves nothing", logged, tt.calls)
			}
			s := NewStore(Options{})
			if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n"))); err != nil {
				t.Fatal(err)
			}
			st := s.Stats()
			if st.SampledAt.IsZero() {
				t.Errorf("%d of at least %d failures logged, %d keys read: not flagged as sampled", logged, tt.calls, s.Len())
			}
			checkUndercounted(t, s, st.SampledAt)
		})
	}
}

// checkUndercounted checks the note is on every count the sampling
// affects, and on no other: each key that failed at or after sampled (zero:
// never) is marked Undercounted, in the list and in its detail.
func checkUndercounted(t *testing.T, s *Store, sampled time.Time) {
	t.Helper()
	_, keys := s.views("")
	marked := 0
	for _, k := range keys {
		want := !sampled.IsZero() && k.LastError != nil && !k.LastError.At.Before(sampled)
		d, err := s.Key(k.Controller, k.Key)
		if err != nil {
			t.Fatal(err)
		}
		if k.Undercounted != want || d.Undercounted != want {
			t.Errorf("%s: undercounted %v (detail %v), last error at %v, sampled from %v; want %v", k.Key, k.Undercounted, d.Undercounted, k.LastError.At, sampled, want)
		}
		if want {
			marked++
		}
	}
	if !sampled.IsZero() && marked == 0 {
		t.Errorf("a sampled log, and no key marked undercounted of %d", len(keys))
	}
}
