package logs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// readQueueFixture reads testdata/queue/name (real controller-runtime
// v0.25.2 logs at V(5): TestWriteQueueFixture) as a saved log, up to and
// with its n-th workqueue_items line: the state at that tick.
func readQueueFixture(t *testing.T, name string, n int) *Store {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "queue", name))
	if err != nil {
		t.Fatal(err)
	}
	var upTo []string
	for l := range strings.Lines(string(b)) {
		upTo = append(upTo, l)
		if strings.Contains(l, `"workqueue_items"`) {
			if n--; n == 0 {
				break
			}
		}
	}
	s := NewStore(Options{})
	if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(upTo, ""))); err != nil {
		t.Fatal(err)
	}
	return s
}

// queueWant is what a key should read as at a tick; the times are the
// lines' own, copied from the fixtures.
type queueWant struct {
	key       string
	state     api.State
	failures  int
	nextRetry string // RFC 3339; "" for none
	delay     time.Duration
	source    string
	estimated bool
}

// TestQueueItemsReadAsTheQueuesState: the priority queue's workqueue_items
// lines, as real controllers logged them, are read as the state they are:
// a waiting key's next retry is its readyAt, exact (source "queue"; a
// RequeueAfter's keeps its source), and a ready key is queued.
func TestQueueItemsReadAsTheQueuesState(t *testing.T) {
	for _, tc := range []struct {
		file         string
		first, again []queueWant
	}{
		{"zap-json.log",
			// 12:29:21: failing failed 11 times (5ms·2^10 = 5.12s after its
			// failure at 12:29:16, whose stamp has whole seconds); polled
			// waits its 30s at priority -100.
			[]queueWant{
				{"default/failing", api.StateBackoff, 11, "2026-12-06T12:29:21.289656455Z", 5120 * time.Millisecond, api.SourceQueue, false},
				{"default/polled", api.StateScheduled, 0, "2026-12-06T12:29:41.042924729Z", 30 * time.Second, api.SourceRequeueAfter, false},
			},
			// 12:29:31: slow holds the one worker; failing (due at 21.29)
			// and waiting are ready, waiting for it.
			[]queueWant{
				{"default/failing", api.StateQueued, 11, "", 0, "", true},
				{"default/waiting", api.StateQueued, 0, "", 0, "", true},
				{"default/slow", api.StateRunning, 0, "", 0, "", true},
				{"default/polled", api.StateScheduled, 0, "2026-12-06T12:29:41.042924729Z", 30 * time.Second, api.SourceRequeueAfter, false},
			}},
		{"klog.log",
			// 12:29:01.030326: the failure at 12:28:56.183676 and readyAt
			// 12:29:01.303692515: 5.120016515s, the limiter's 5.12s and
			// 16µs of the queue's add buffer.
			[]queueWant{
				{"default/failing", api.StateBackoff, 11, "2026-12-06T12:29:01.303692515Z", 5120 * time.Millisecond, api.SourceQueue, false},
				{"default/polled", api.StateScheduled, 0, "2026-12-06T12:29:21.027507646Z", 30 * time.Second, api.SourceRequeueAfter, false},
			},
			[]queueWant{
				{"default/failing", api.StateQueued, 11, "", 0, "", true},
				{"default/waiting", api.StateQueued, 0, "", 0, "", true},
				{"default/slow", api.StateRunning, 0, "", 0, "", true},
				{"default/polled", api.StateScheduled, 0, "2026-12-06T12:29:21.027507646Z", 30 * time.Second, api.SourceRequeueAfter, false},
			}},
	} {
		for tick, wants := range [][]queueWant{tc.first, tc.again} {
			s := readQueueFixture(t, tc.file, tick+1)
			for _, w := range wants {
				d, err := s.Key("widget", w.key)
				if err != nil {
					t.Errorf("%s, tick %d: %s: %v", tc.file, tick+1, w.key, err)
					continue
				}
				next := ""
				if !d.NextRetryAt.IsZero() && (d.State == api.StateBackoff || d.State == api.StateScheduled) {
					next = d.NextRetryAt.UTC().Format(time.RFC3339Nano)
				}
				delay, source := d.Delay.Duration, d.DelaySource
				if d.State != api.StateBackoff && d.State != api.StateScheduled {
					delay, source = 0, ""
				}
				if d.State != w.state || d.Failures != w.failures || next != w.nextRetry || delay != w.delay || source != w.source || d.Estimated != w.estimated {
					t.Errorf("%s, tick %d: %s is %s, %d failures, next retry %q, delay %v (%s), estimated %v;\nwant %s, %d, %q, %v (%s), estimated %v",
						tc.file, tick+1, w.key, d.State, d.Failures, next, delay, source, d.Estimated,
						w.state, w.failures, w.nextRetry, w.delay, w.source, w.estimated)
				}
			}
		}
	}
}

// The queue's readyAt that the assumed limiter does not explain is the
// delay (a controller with a limiter of its own): from the failure's line
// to it.
func TestQueueItemsOwnLimiter(t *testing.T) {
	s := NewStore(Options{})
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 500_000_000, time.UTC)
	s.Add(Record{What: ErrorLine, Controller: "widget", Namespace: "default", Name: "w1", At: t0, Error: "boom"})
	s.Add(Record{What: QueueLine, Controller: "widget", At: t0.Add(time.Second),
		Items: []QueueItem{{Key: "default/w1", ReadyAt: t0.Add(30 * time.Second)}}})
	d, err := s.Key("widget", "default/w1")
	if err != nil {
		t.Fatal(err)
	}
	if d.State != api.StateBackoff || d.Delay.Duration != 30*time.Second || d.DelaySource != api.SourceQueue || d.Estimated || !d.NextRetryAt.Equal(t0.Add(30*time.Second)) {
		t.Errorf("got %s, delay %v (%s), estimated %v, next %v; want backoff, 30s (queue), exact, at readyAt",
			d.State, d.Delay.Duration, d.DelaySource, d.Estimated, d.NextRetryAt)
	}
}
