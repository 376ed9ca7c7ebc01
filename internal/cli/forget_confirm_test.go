package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// forget --all's question on a terminal said its spread as Go prints a
// duration ("spread over 1h30m0s"), where the rest of the product says
// "1h30m" (text.FormatDuration), and said nothing of the keys failing on a
// permanent error, which the TUI's dialog and --dry-run now count; and
// it put the spread between the verb and the keys it spreads.
func TestForgetConfirmationWords(t *testing.T) {
	for _, tt := range []struct {
		permanent int
		want      string
	}{
		{0, "This will reset and retry 3 keys of wellbehaved, spread over 1h30m. Continue? [y/N] "},
		{2, "This will reset and retry 3 keys of wellbehaved, spread over 1h30m. 2 of them fail on a permanent error: a retry will fail them the same way unless their object changed. Continue? [y/N] "},
	} {
		var errOut bytes.Buffer
		o := &ForgetOptions{IOStreams: genericiooptions.IOStreams{In: strings.NewReader("n\n"), ErrOut: &errOut}, Requeue: true, Spread: 90 * time.Minute}
		if o.confirm([]*api.ForgetResponse{{Controller: "wellbehaved", Count: 3, Permanent: tt.permanent}}) {
			t.Errorf("answered n, confirmed")
		}
		if got := errOut.String(); got != tt.want {
			t.Errorf("the question:\n%q\nwant\n%q", got, tt.want)
		}
	}
}
