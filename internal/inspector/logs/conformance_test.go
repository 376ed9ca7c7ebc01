package logs

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query/sourcetest"
)

// TestConformance: the log server passes the suite every v1 source runs,
// over a log of controller-runtime "Reconciler error" lines (zap JSON, as
// in parse_test.go), one per failure of each key.
func TestConformance(t *testing.T) {
	sourcetest.Run(t, func(t *testing.T, keys []sourcetest.Key) http.Handler {
		var b strings.Builder
		ts := 1617276479.0
		for _, k := range keys {
			for range k.Failures {
				ts += 0.001
				fmt.Fprintf(&b, `{"level":"error","ts":%.3f,"logger":"controller-runtime.controller","msg":"Reconciler error","controller":%q,"request":%q,"error":%q}`+"\n",
					ts, k.Controller, k.Key, k.Error)
			}
		}
		s := NewStore(Options{})
		if _, _, err := s.Read(context.Background(), strings.NewReader(b.String())); err != nil {
			t.Fatal(err)
		}
		return s.Handler()
	})
}
