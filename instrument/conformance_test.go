package instrument

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query/sourcetest"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestConformance: the instrument's handler passes the suite every v1
// source runs, over probes whose keys failed through the real decorators
// (the reconciler's error, then the limiter's When), each as often as the
// suite asks; alpha on the priority queue, beta on the classic one.
func TestConformance(t *testing.T) {
	sourcetest.Run(t, func(t *testing.T, keys []sourcetest.Key) http.Handler {
		e := newHTEnv(t)
		for _, name := range []string{"alpha", "beta"} {
			e.probe(name, name == "alpha", NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))
		}
		for _, k := range keys {
			for range k.Failures {
				e.probes[k.Controller].run(k.Key, reconcile.Result{}, errors.New(k.Error))
			}
		}
		return e.h
	})
}
