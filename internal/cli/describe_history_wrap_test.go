package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestDescribeHistoryWrapsItsErrors: at 80 columns describe's History cut
// each error to the room its other columns left ("failed to…awaiting
// headers"), losing what the error named. It wraps them in ERROR's column,
// as why's tables wrap a MESSAGE, and, where even the narrowed table
// leaves ERROR too little room, puts each under its row: every word of the
// error is on the screen, and no line passes its width.
func TestDescribeHistoryWrapsItsErrors(t *testing.T) {
	const failed = `failed to get secret "tls-web" of issuer "letsencrypt-prod": context deadline exceeded while awaiting headers`
	at := time.Date(2026, 12, 7, 10, 57, 45, 0, time.UTC)
	var hist []api.Attempt
	for i := range 3 {
		hist = append(hist, api.Attempt{At: at.Add(time.Duration(i) * 10 * time.Second), Outcome: api.OutcomeError,
			Error: failed, Class: api.ClassTransient, Trigger: api.TriggerRetry, Delay: metav1.Duration{Duration: 10 * time.Second}})
	}
	for _, width := range []int{120, 80, 60} {
		func() {
			defer screenWidthForTest(width)()
			var b bytes.Buffer
			printHistory(&b, hist, 0)
			out := b.String()
			wantWithin(t, out, width)
			if strings.Contains(out, "…") {
				t.Errorf("at %d columns an error is cut:\n%s", width, out)
			}
			words := strings.Join(strings.Fields(out), " ")
			for _, w := range strings.Fields(failed) {
				if n := strings.Count(words, w); n < len(hist) {
					t.Errorf("at %d columns %q shows %d times, want once per attempt (%d):\n%s", width, w, n, len(hist), out)
				}
			}
		}()
	}
}
