package logs

import (
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2/textlogger"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Log lines stamped on the real queue's own schedule. A test that reads a
// key's failures from the gaps between its lines (growing as the limiter's
// delays) gets, on the real clock, those delays plus however late a loaded
// machine ran each retry: two stalls of 0.7 s (not 0.3 s) before the 4th and
// 7th of nine failures leave no three gaps in a row that fit the limiter,
// and the key is not read. Stamped at the queue's schedule — the start, plus every
// delay the real limiter chose for the key, plus a millisecond for each
// reconcile — the gaps are the real queue's delays, whatever the timing;
// the count and the delays read are still checked against the real queue.

// queueTime is when the real queue meant to run key's next attempt: t0
// plus the delays its limiter chose so far, a millisecond of run time each.
func (l *recordingLimiter) queueTime(t0 time.Time, key string) time.Time {
	ns, name, _ := strings.Cut(key, "/")
	r := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}}
	l.mu.Lock()
	defer l.mu.Unlock()
	at := t0
	for _, d := range l.waits[r] {
		at = at.Add(d + time.Millisecond)
	}
	return at
}

// fixedClock is a zap clock that always says at.
type fixedClock time.Time

func (c fixedClock) Now() time.Time                         { return time.Time(c) }
func (c fixedClock) NewTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }

// stampedLogger is format f's logger (zap-json-epoch or klog-text) writing
// to w with its lines stamped at.
func stampedLogger(t *testing.T, f loggerFormat, w *logBuffer, at time.Time) logr.Logger {
	switch f.name {
	case "zap-json-epoch":
		return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), zapLevel(false),
			func(o *crzap.Options) { o.TimeEncoder = zapcore.EpochTimeEncoder },
			crzap.RawZapOpts(zap.WithClock(fixedClock(at))))
	case "klog-text":
		return textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(w), textlogger.Verbosity(0), textlogger.FixedTime(at)))
	}
	t.Fatalf("no stamped logger for %s", f.name)
	return logr.Discard()
}

// ownLogOnQueueTime is ownLog (failures only) with each line stamped at
// the real queue's schedule.
func ownLogOnQueueTime(t *testing.T, f loggerFormat, priority bool, st step) (*realController, *logBuffer, *recordingLimiter) {
	t.Helper()
	own := &logBuffer{}
	t0 := time.Now()
	var lim *recordingLimiter // set before the first event is sent
	rc, _, lim := ownLogWith(t, own, priority, st, func(key string, _ reconcile.Result, err error) {
		if err != nil {
			stampedLogger(t, f, own, lim.queueTime(t0, key)).WithName("widget").Info(ownWords(key, err.Error()))
		}
	})
	return rc, own, lim
}
