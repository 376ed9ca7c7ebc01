package explain_test

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// A kick suggested for a key of a saved log names the file, which kick
// reads again for the key's kind (kick --from-logs FILE KEY), not a TARGET
// the reader of a colleague's log has no way to guess; a TARGET's logs
// keep the TARGET, and stdin, which cannot be read twice, the placeholder.
func TestKickRenderedForALogFile(t *testing.T) {
	kick := explain.Command{Verb: "kick", Target: true, Flags: []explain.Flag{{Name: "from-logs"}}, Words: []string{"team-a/w1"}}
	for _, tc := range []struct {
		s    explain.Session
		want string
	}{
		{explain.Session{LogFile: "saved log.txt"}, "kubectl backoff kick --from-logs 'saved log.txt' team-a/w1"},
		{explain.Session{Target: "deploy/op -n sys", LogFile: "ignored.log"}, "kubectl backoff kick deploy/op -n sys --from-logs team-a/w1"},
		{explain.Session{}, "kubectl backoff kick TARGET --from-logs team-a/w1"},
	} {
		if got := kick.Render(tc.s); got != tc.want {
			t.Errorf("Render(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
