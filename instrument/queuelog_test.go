package instrument

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// levelSink is a logr sink that counts the V(5) checks made through it:
// controller-runtime's priority queue asks V(5).Enabled() every 10 s to
// decide whether to log its items.
type levelSink struct{ v5 atomic.Int32 }

func (s *levelSink) Init(logr.RuntimeInfo) {}
func (s *levelSink) Enabled(level int) bool {
	if level == 5 {
		s.v5.Add(1)
	}
	return false
}
func (s *levelSink) Info(int, string, ...any)       {}
func (s *levelSink) Error(error, string, ...any)    {}
func (s *levelSink) WithValues(...any) logr.LogSink { return s }
func (s *levelSink) WithName(string) logr.LogSink   { return s }

// TestPriorityQueueLogsThroughControllerLogger: the priority queue the probe
// builds logs through the logger the controller's options name, as
// controller-runtime's own queue does, not through the global logger (which
// a program naming its loggers may never set). The queue's first check comes
// from a 10 s ticker inside controller-runtime that no clock reaches, so the
// test waits on it, with a deadline.
func TestPriorityQueueLogsThroughControllerLogger(t *testing.T) {
	t.Parallel()
	sink := &levelSink{}
	ep := newTestEndpoint(t)
	p := New("x", Options{Registry: ep.Registry})
	o := p.ControllerOptions(controller.Options{Logger: logr.New(sink), UsePriorityQueue: ptr.To(true)})
	q := o.NewQueue("x", o.RateLimiter)
	defer q.ShutDown()
	deadline := time.Now().Add(30 * time.Second)
	for sink.v5.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the priority queue never asked the controller's logger whether V(5) is enabled: it logs elsewhere")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
