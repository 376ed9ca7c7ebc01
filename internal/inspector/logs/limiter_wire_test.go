package logs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestControllersDescribeTheLimiterTheEstimatesUse: v1/controllers says,
// per controller, the limiter its keys' retries are estimated with. For
// cert-manager's controllers that is the project's own (pkg/controller/
// util.go: NewTypedItemExponentialFailureRateLimiter(1s, 30s) for the
// certificates-* controllers, (5s, 5m) for the others, and no bucket), not
// controller-runtime's default; for kube-controller-manager's deployment
// controller (a client-go work queue) client-go's
// DefaultControllerRateLimiter, bucket included. Each key's delay after its
// one failure is the described limiter's base delay. The fixtures are the
// wild corpus's (see testdata/wild/README.md); the controllers and limiters
// were read off the lines and the projects' source.
func TestControllersDescribeTheLimiterTheEstimatesUse(t *testing.T) {
	type want struct {
		base, max time.Duration
		bucket    bool
		words     string // in the description, as a user reads it
	}
	certificates := want{base: time.Second, max: 30 * time.Second, words: "item-exponential 1s..30s (cert-manager's own"}
	others := want{base: 5 * time.Second, max: 5 * time.Minute, words: "item-exponential 5s..5m0s (cert-manager's own"}
	clientGo := want{base: 5 * time.Millisecond, max: 1000 * time.Second, bucket: true, words: "client-go's DefaultControllerRateLimiter"}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		file string
		ref  time.Time
		want map[string]want // by controller
	}{
		{"cert-manager-4437.log", day(2021, 9, 8), map[string]want{"certificates-readiness": certificates}},
		{"cert-manager-3897.log", day(2021, 6, 15), map[string]want{"certificates-key-manager": certificates}},
		{"cert-manager-3594.log", day(2021, 2, 4), map[string]want{"certificaterequests-issuer-acme": others}},
		{"cert-manager-3414.log", day(2020, 10, 27), map[string]want{
			"certificaterequests-issuer-venafi": others, "certificaterequests-issuer-acme": others, "certificaterequests-issuer-selfsigned": others}},
		{"kubernetes-43730.log", day(2017, 3, 29), map[string]want{"deployment-controller": clientGo}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata/wild", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			s := NewStore(Options{})
			for _, r := range readRecords(raw, tt.ref) {
				s.Add(r)
			}
			ctls := s.Controllers().Controllers
			if len(ctls) != len(tt.want) {
				t.Fatalf("%d controllers, want %d", len(ctls), len(tt.want))
			}
			for _, c := range ctls {
				w, ok := tt.want[c.Name]
				if !ok {
					t.Errorf("controller %q not expected", c.Name)
					continue
				}
				l := c.Limiter
				wantComps := 1
				if w.bucket {
					wantComps = 2
				}
				if len(l.Components) != wantComps || l.Components[0].Name != api.SourceItemExponential ||
					l.Components[0].BaseDelay.Duration != w.base || l.Components[0].MaxDelay.Duration != w.max {
					t.Errorf("%s: components %+v; want item-exponential %v..%v (and a bucket: %v)", c.Name, l.Components, w.base, w.max, w.bucket)
				}
				if !strings.Contains(l.Description, w.words) || strings.Contains(l.Description, "controller-runtime") {
					t.Errorf("%s: description %q; want %q, and no controller-runtime", c.Name, l.Description, w.words)
				}
			}
			// What the description says is what the keys were estimated
			// with: after one failure, the base delay.
			_, keys := s.views("")
			for _, k := range keys {
				if d := k.Delay.Duration; d != tt.want[k.Controller].base {
					t.Errorf("%s: delay %v, want %v", k.Key, d, tt.want[k.Controller].base)
				}
			}
		})
	}
}
