package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// syncBuffer takes the controllers' concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// TestControllerLog: with Options.ControllerLog, every line is zap JSON, and
// the naive controller's failures are "Reconciler error" lines that the
// log mode reads back as the key, controller and error the endpoint shows.
func TestControllerLog(t *testing.T) {
	var buf syncBuffer
	opts := DefaultOptions()
	opts.Keys, opts.Speed, opts.Seed, opts.Listen, opts.ControllerLog = 60, speed, 1, "127.0.0.1:0", &buf
	ctx, cancel := context.WithCancel(context.Background())
	d, err := Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("Start: %v", err)
	}
	defer func() {
		cancel()
		if err := d.Wait(); err != nil {
			t.Errorf("Wait: %v", err)
		}
	}()
	want := logs.Record{What: logs.ErrorLine, Controller: naiveName, Namespace: DefaultNamespace, Name: objectName(naiveName, 0), Error: errNoStorageClass.Error()}
	eventually(t, 10*time.Second, func() (bool, string) {
		sc := bufio.NewScanner(bytes.NewReader(buf.bytes()))
		sc.Buffer(nil, 1<<20)
		n := 0
		for sc.Scan() {
			n++
			if !json.Valid(sc.Bytes()) {
				t.Fatalf("line %d is not JSON: %s", n, sc.Bytes())
			}
			r, ok := logs.Parse(sc.Bytes(), time.Now())
			if ok && r.What == want.What && r.Controller == want.Controller && r.Key() == want.Key() && r.Error == want.Error && !r.Terminal {
				// controller-runtime's builder logs the kind every reconciler
				// line: kick --from-logs reads it to find the object.
				if r.Kind != "ConfigMap" || r.Group != "" {
					t.Fatalf("line %d gives kind %q, group %q; want ConfigMap of the core group (controllerKind, controllerGroup): %s", n, r.Kind, r.Group, sc.Bytes())
				}
				return true, ""
			}
		}
		return false, fmt.Sprintf("no line of %d parses as %+v", n, want)
	})
}
