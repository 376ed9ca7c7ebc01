package cli_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// forgetCount is the count a forget's last line states: "would forget the
// backoff of 20 keys of naive; …", "forgot 200 keys in 6 controllers".
var forgetCount = regexp.MustCompile(`^(?:would forget|forgot) (?:the backoff of )?(\d+) keys?\b`)

// A dry run counts what the real forget then does: on the demo world (a
// minute into its first outage, every state present), each selection's
// --dry-run total equals the total the same forget reports when it runs.
func TestForgetDryRunCountsWhatForgetDoes(t *testing.T) {
	for _, args := range [][]string{
		{"--all"}, // every controller, every state: idle keys too, as the endpoint forgets them
		{"--all", "--state", "backoff"},
		{"--all", "--state", "idle,scheduled"},
		{"--all", "-q", "503"},
		{"--controller", "naive", "--all"},
		{"--controller", "outage", "--all", "--requeue", "--spread", "1m"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			srv := demoWorld(t)
			count := func(extra ...string) int {
				t.Helper()
				streams, _, out, _ := genericiooptions.NewTestIOStreams()
				if err := run(cli.NewForgetCommand, streams, append(append([]string{"--addr", srv.URL}, args...), extra...)...); err != nil {
					t.Fatalf("forget %v %v: %v", args, extra, err)
				}
				// The count closes a forget and opens a dry run.
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				line := lines[len(lines)-1]
				if slices.Contains(extra, "--dry-run") {
					line = lines[0]
				}
				m := forgetCount.FindStringSubmatch(line)
				if m == nil {
					t.Fatalf("forget %v %v: no count on its first (dry run) or last line:\n%s", args, extra, out)
				}
				n, _ := strconv.Atoi(m[1])
				return n
			}
			dry := count("--dry-run")
			if dry == 0 {
				t.Fatalf("the dry run selects no key: the world has none to compare")
			}
			if real := count("--yes"); real != dry {
				t.Errorf("--dry-run counted %d keys, the forget then %d", dry, real)
			}
		})
	}
}

// A dry run changes nothing, so it says so first and in the conditional:
// its count on the first line, then each key "would be retried", never
// "retried in 300ms" as if done.
func TestForgetDryRunSaysItsCountFirst(t *testing.T) {
	for _, args := range [][]string{
		{"--all", "--requeue", "--spread", "1m"},
		{"--controller", "outage", "--all", "--requeue", "--spread", "1m"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			srv := demoWorld(t)
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			if err := run(cli.NewForgetCommand, streams, append([]string{"--addr", srv.URL, "--dry-run"}, args...)...); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if !strings.HasPrefix(lines[0], "would forget") {
				t.Errorf("first line %q, want the would-forget count", lines[0])
			}
			retried := 0
			for _, l := range lines[1:] {
				if strings.Contains(l, "retried") {
					retried++
					if !strings.Contains(l, "would be retried") {
						t.Errorf("%q: a dry run said it as done", l)
					}
				}
			}
			if retried == 0 {
				t.Errorf("no key line says when it would be retried:\n%s", out)
			}
		})
	}
}
