//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// whyFix is the step why gives for a failing key with an error
// (why.explainKey): the user's fix is what the error names, quoted.
const whyFix = "Fix what the error names: "

// assertFixWhatItNames checks that why's next steps for an object blocked
// by a failing key say to fix what the key's error names, with the error:
// the step a user acts on, which only the unit tests checked before.
func assertFixWhatItNames(t *testing.T, who string, a *why.Answer, errPart string) {
	t.Helper()
	for _, n := range a.Next {
		if strings.HasPrefix(n, whyFix) && strings.Contains(n, errPart) {
			return
		}
	}
	t.Errorf("%s: next steps %q; want %q with the error (%q)", who, a.Next, whyFix+"…", errPart)
}

// kcmAdviceWants are what describe advises a reader of
// kube-controller-manager's own log (--from-logs FILE) about a key failing
// on a permanent error, as explain says it to a user (not the
// controller's authors): fix what the error names; and, since this tier
// runs it at --v=4, where the ReplicaSet controller logs each sync's end
// ("Finished syncing", a success when no failure follows: logs/finished.go),
// that the streak is consecutive, not a level nor "instrument it".
var kcmAdviceWants = []string{
	"Fix what the error names: the object, or what it depends on (a quota, a missing object it refers to).",
	"Successes are in this log: a failure streak ends at the next one.",
}

// kcmAdviceBanned are advice that is wrong for kube-controller-manager read
// from a file: forget refuses --from-logs (a log does not reach the
// queue); kube-controller-manager is not the reader's to instrument nor to
// change to return a TerminalError; a log shows no watch events, so it
// cannot say the object did not change; a kick names the file, not a
// TARGET the reader of a saved log does not have (assertKicksByFile); the
// advice to the controller's authors (authorsAdvice) is for a controller
// read through its endpoint, the reader's own.
var kcmAdviceBanned = []string{"backoff forget", "forget --all", "instrument it", "TerminalError", "no change to the object", "kick TARGET", "For the controller's author"}

// describeKCMKey runs describe --from-logs FILE KEY on
// kube-controller-manager's log until it reads the key in backoff (a log
// read as of its last line says "unknown" for a key whose retry that line
// passed), and checks its advice: kcmAdviceWants, none of
// kcmAdviceBanned, kicks by the file. Then the controller's diagnosis
// (describe --from-logs FILE --controller NAME), which must not give
// banned advice either.
func describeKCMKey(t *testing.T, kc *kubectl, admin, logPath, controller, key string) {
	t.Helper()
	var out string
	eventually(t, time.Minute, "describe --from-logs reads "+key+" in backoff", func(context.Context) error {
		o, errOut, err := kc.run(t, admin, "backoff", "describe", "--from-logs", logPath, key)
		switch {
		case err != nil:
			return fmt.Errorf("describe: %v: %s", err, errOut)
		case !strings.Contains(o, "Controller:  "+controller+"\n") || !strings.Contains(o, "State:       backoff\n"):
			return fmt.Errorf("not %s's key in backoff:\n%s", controller, o)
		}
		out = o
		return nil
	})
	t.Logf("describe --from-logs FILE %s:\n%s", key, out)
	for _, want := range kcmAdviceWants {
		if !strings.Contains(out, want) {
			t.Errorf("describe --from-logs FILE %s lacks %q", key, want)
		}
	}
	assertKCMAdvice(t, "describe --from-logs FILE "+key, out, logPath)
	ctl := kc.ok(t, admin, "backoff", "describe", "--from-logs", logPath, "--controller", controller)
	t.Logf("describe --from-logs FILE --controller %s:\n%s", controller, ctl)
	if !strings.Contains(ctl, "Controller:  "+controller+"\n") {
		t.Errorf("describe --controller %s is not its diagnosis:\n%s", controller, ctl)
	}
	assertKCMAdvice(t, "describe --from-logs FILE --controller "+controller, ctl, logPath)
}

// assertKCMAdvice checks that out gives none of kcmAdviceBanned, and that
// every kick it suggests reads the file again (kick --from-logs FILE KEY).
func assertKCMAdvice(t *testing.T, what, out, logPath string) {
	t.Helper()
	for _, bad := range kcmAdviceBanned {
		if strings.Contains(out, bad) {
			t.Errorf("%s says %q, wrong for kube-controller-manager's log read from a file:\n%s", what, bad, out)
		}
	}
	all := kickRE.FindAllString(out, -1)
	for _, k := range all {
		if !strings.HasPrefix(k, "kubectl backoff kick --from-logs "+logPath+" ") {
			t.Errorf("%s suggests %q; want kick --from-logs %s KEY", what, k, logPath)
		}
	}
	// In this tier none is (no key of kube-controller-manager fails on a
	// transient error long enough, and its log names no kind to read the
	// object by): said, so that a vacuous check is seen as one.
	t.Logf("%s: %d kick(s) suggested", what, len(all))
}

// kcmLevel is what describe advises, of kube-controller-manager's log at
// -v=2, for a controller that logs each sync's end at V(4) ("Finished
// syncing": the replicaset controller's, replica_set.go:759); for one that
// logs no success the dialect reads at any level (the HPA controller's),
// kcmNoLevel.
const (
	kcmLevel   = "--v=4 on kube-controller-manager"
	kcmNoLevel = "No level I know of makes this controller log its successes"
)

// describeKCMLevels describes, off the log as -v=2 writes it, each
// controller's key of keys (controller: key) and checks the level it
// advises for the controller's successes: kcmLevel for the replicaset
// controller, kcmNoLevel for the others; and none of kcmAdviceBanned.
func describeKCMLevels(t *testing.T, kc *kubectl, admin, logPath string, keys map[string]string) {
	t.Helper()
	for controller, key := range keys {
		out := kc.ok(t, admin, "backoff", "describe", "--from-logs", logPath, "--controller", controller, key)
		what := "-v2: describe --from-logs FILE --controller " + controller + " " + key
		want, not := kcmNoLevel, kcmLevel
		if controller == "replicaset-controller" {
			want, not = kcmLevel, kcmNoLevel
		}
		// A key of one failure in backoff is told no level (nothing of
		// its successes is missing yet): the HPA's, when the log ends
		// within its 15s of the case's first failure, as in CI.
		advised := !strings.Contains(out, "Failures:       1 failure ")
		if advised && !strings.Contains(out, want) || strings.Contains(out, not) {
			t.Errorf("%s: want %q, not %q:\n%s", what, want, not, out)
		}
		assertKCMAdvice(t, what, out, logPath)
	}
}

// kickRE is a suggested kick, up to its closing backquote or the line's end.
var kickRE = regexp.MustCompile("kubectl backoff kick[^`\n]*")

// describeKCMAll describes, off the whole log as a file, every key read of
// it and every controller that has one (conflicts, an unclassified
// discovery failure, permanent refusals, whatever each case left): none of
// their advice may be kcmAdviceBanned, and every kick reads the file.
func describeKCMAll(t *testing.T, kc *kubectl, admin, logPath string, keys []api.Key) {
	t.Helper()
	controllers := map[string]bool{}
	for _, k := range keys {
		out := kc.ok(t, admin, "backoff", "describe", "--from-logs", logPath, "--controller", k.Controller, k.Key)
		assertKCMAdvice(t, "describe --from-logs FILE --controller "+k.Controller+" "+k.Key, out, logPath)
		if !controllers[k.Controller] {
			controllers[k.Controller] = true
			out := kc.ok(t, admin, "backoff", "describe", "--from-logs", logPath, "--controller", k.Controller)
			assertKCMAdvice(t, "describe --from-logs FILE --controller "+k.Controller, out, logPath)
		}
	}
}

// authorsAdvice is describe's advice, after the user's fix, to the authors
// of a controller whose key fails on a permanent error, read through its
// endpoint (explain's errorFinding): the demo's naive controller returns
// its 422 "spec.storageClass must be set" for ever.
const authorsAdvice = "For the controller's author: record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying."

// describeNaivePermanent runs describe (args) of a naive key until it
// reads the key in backoff (a key retried at that moment is queued or
// running, and advised to wait), and checks its advice: the user's fix,
// then authorsAdvice, labelled as the author's.
func describeNaivePermanent(t *testing.T, kc *kubectl, admin string, args []string) string {
	t.Helper()
	var out string
	eventually(t, 30*time.Second, "describe reads the naive key in backoff", func(context.Context) error {
		if out = kc.ok(t, admin, args...); !strings.Contains(out, "State:       backoff\n") {
			return fmt.Errorf("not in backoff:\n%s", out)
		}
		return nil
	})
	fix, author := strings.Index(out, whyFix), strings.Index(out, authorsAdvice)
	if fix < 0 || author < fix {
		t.Errorf("describe's advice for the permanent error: want %q, then %q:\n%s", whyFix+"…", authorsAdvice, out)
	}
	return out
}
