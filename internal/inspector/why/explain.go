package why

import (
	"fmt"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// summarize is the answer in one sentence, and the steps to take.
func summarize(a *Answer, h CommandHint) (string, []string) {
	prog := h.Program
	if prog == "" {
		prog = "kubectl backoff"
	}
	v, c, b := a.Verdict, a.Controller, a.Backoff
	word := v.Status
	deciding, hasDeciding := objstatus.Deciding(v.Conditions)
	switch {
	case v.Status == Terminating && hasDeciding:
		return fmt.Sprintf("Terminating: %s; %s.", v.Message, deciding.Said()), nil
	case v.Status == Terminating:
		return fmt.Sprintf("Terminating: %s.", v.Message), []string{"Deletion waits for the finalizers to be removed by their controllers: see the status manager's backoff below."}
	case c != nil && c.NotRunning != "" && v.Status != Current:
		return fmt.Sprintf("%s: %s.", word, c.NotRunning),
			[]string{fmt.Sprintf("Bring the controller back: `kubectl describe %s -n %s` (its events say why no pod runs).", c.Target, c.Namespace)}
	case b != nil && b.Key != nil && b.Key.State != api.StateIdle:
		// What the controller says of the key is the evidence: it has
		// tried (an object whose managedFields name no status manager, a
		// ConfigMap, is still reconciled), whatever the status says.
		return explainKey(a, prog)
	case v.Status != Current && v.Recurring != "" && (b == nil || b.Key == nil):
		// The object's own recurring failures say what is wrong, whoever
		// writes its status (the PV binder records no status manager).
		return fmt.Sprintf("%s: %s.", word, v.Recurring), recurringSteps(a, prog) // recurring.go
	case v.KindNoStatus && b != nil && b.NotTracked != "" && c.Found():
		// Its controller was found and asked: it has not failed on it.
		return fmt.Sprintf("Current: a %s has no status, and its controller has not failed on it (%s): nothing to wait for.", a.Object.Kind, b.NotTracked), nil
	case v.KindNoStatus && (b == nil || b.Key == nil):
		// A ConfigMap an operator reconciles (its pods named) is judged
		// by what its controller says of the key, below.
		return fmt.Sprintf("Current: a %s has no status, and no controller was found reporting on it: a change to it takes effect when what reads it reads it again "+
			"(an operator that reconciles it: name its pods with %s, or its endpoint with %s when it runs outside the cluster, as with go run).", a.Object.Kind, podsFlag, addrFlag), nil
	case v.NotReconciled:
		return fmt.Sprintf("%s: no controller has written its status yet (no status manager was found in managedFields): nothing has reconciled this object.", word),
			[]string{fmt.Sprintf("Check that the controller of kind %s is installed, running, and watches namespace %q.", a.Object.Kind, a.Object.Namespace)}
	case c != nil && c.Rule == RuleNoManager && v.Status == Current && objstatus.Builtin(a.Object.groupKind()):
		return "Current: nothing to wait for (no status manager was found: its controller writes no status it records in managedFields).", nil
	case c != nil && c.Rule == RuleNoManager && statusWritten(v):
		// Something reconciled it: its conditions say so. The object came
		// without managedFields (as `kubectl get -o yaml` prints it) or its
		// controller writes status under a manager it shares.
		return fmt.Sprintf("%s: its status was written, but managedFields name no status manager, so its controller cannot be found from the object.", word),
			[]string{"Name the controller's pods: " + quoted(command(prog, explain.Command{Verb: "why", Flags: []explain.Flag{{Name: podsFlag.Name, Value: "deploy/NAME"}, {Name: namespaceFlag.Name, Value: "NS"}}},
				explain.Session{Attach: strings.ToLower(a.Object.Kind) + "/" + a.Object.Name, AttachFlags: inNamespace(a.Object.Namespace)})) + "."}
	case c != nil && c.Rule == RuleNoManager:
		return fmt.Sprintf("%s, but no status manager was found: no controller has written this object's status.", word),
			[]string{fmt.Sprintf("Check that the controller of kind %s is installed, running, and watches namespace %q: nothing has reconciled this object yet.", a.Object.Kind, a.Object.Namespace)}
	case b != nil && b.Key != nil:
		return explainKey(a, prog)
	case b != nil && b.NotTracked != "" && v.Status == Current:
		return "Current: the latest change is reconciled, nothing to wait for.", nil
	}
	var next []string
	if v.NeverReconciled {
		next = append(next, "The controller has not picked the object up: check that it runs and watches this namespace.")
	}
	if c != nil && !c.Found() {
		next = append(next, sentence(c.How))
	}
	if a.BackoffError != "" {
		next = append(next, "The controller's backoff could not be read: "+a.BackoffError+".")
	}
	if v.Status == Current {
		return "Current: the latest change is reconciled, nothing to wait for.", next
	}
	if hasDeciding && !strings.Contains(v.Message, deciding.Message) {
		return fmt.Sprintf("%s: %s; %s.", word, strings.TrimSuffix(v.Message, "."), deciding.Said()), next
	}
	return fmt.Sprintf("%s: %s.", word, v.Message), next
}

// explainKey is summarize when the controller reported the key.
func explainKey(a *Answer, prog string) (string, []string) {
	b, k, v := a.Backoff, a.Backoff.Key, a.Verdict // v: controllerVerdict judged a kind without status
	now := a.Clock()
	var reach explain.Session // how a command reaches the controller: its pods, or its address
	switch {
	case a.Controller.Found() && a.Controller.Rule == RuleAddr:
		reach.AttachFlags = []explain.Flag{{Name: "addr", Value: a.Controller.Target}}
	case a.Controller.Found():
		reach = explain.Session{Attach: a.Controller.Target, AttachFlags: []explain.Flag{{Name: "n", Value: a.Controller.Namespace}}}
	}
	reached := reach.Attach != "" || len(reach.AttachFlags) > 0
	const kicked = "   (touches the object so that its watch retries it now; the failure count is kept)"
	var cmd, does string // the command, what it does
	switch {
	case b.Source == SourceEndpoint && reached && b.Requeues:
		reach.Key = k.Key
		cmd = command(prog, explain.Command{Verb: "forget", Flags: []explain.Flag{{Name: "requeue"}, {Name: "controller", Value: b.Controller}}}, reach)
		does = "   (resets the backoff and retries now)"
	case !reached || isKCM(a) || b.Source == SourceEndpoint:
		// A log the user gave: no pod to read the kind from;
		// kube-controller-manager's log names no kind either (its failure
		// lines are UnhandledError's); an endpoint that cannot requeue (its
		// queue not instrumented, or forget switched off) keeps the pending
		// retry's time. The object says its kind.
		cmd, does = command(prog, kickKind(a.Object.groupKind(), k.Key), explain.Session{}), kicked
	default:
		cmd, does = command(prog, explain.Command{Verb: "kick", Flags: []explain.Flag{{Name: "from-logs"}}, Words: []string{k.Key}}, reach), kicked
	}
	b.RetryNow = cmd
	retryNow := quoted(cmd) + does
	fix, then := "", "Then retry at once: "
	switch {
	case k.LastError != nil && k.LastError.Class == api.ClassTransient:
		// A 503, a timeout, a conflict: nothing in the object to fix, as
		// describe says ("the backoff is doing its job").
		fix = "Nothing to fix in the object: what the controller depends on is failing (a transient error: " + oneLine(k.LastError.Message) + "); the backoff retries it"
		then = "Once that is back, retry at once: "
	case k.LastError != nil:
		if fix = podSecurityFix(a.Object, k.LastError.Message); fix == "" { // podsecurity.go
			fix = "Fix what the error names: " + oneLine(k.LastError.Message)
		}
	}
	precision := b.Precision()
	switch k.State {
	case api.StateBackoff:
		next := "next retry in " + text.Countdown(k.NextRetryAt, now)
		if !k.NextRetryAt.After(now) {
			next = "next retry due now"
		}
		// A log without its successes cannot say the failures are consecutive.
		s := fmt.Sprintf("%s: controller %q is failing on it: %s, %s (%s)", v.Status, b.Controller, explain.FailuresText(*k, nil), next, precision)
		a.fixSteps = nonEmpty(fix, then+retryNow)
		return s + ".", a.fixSteps
	case api.StateFailed:
		s := fmt.Sprintf("%s: controller %q %s: only a change to the object retries it", v.Status, b.Controller, explain.StoppedText(*k))
		a.fixSteps = nonEmpty(fix, "Then change the object, or retry it: "+retryNow)
		return s + ".", a.fixSteps
	case api.StateScheduled:
		return fmt.Sprintf("%s: controller %q re-checks it in %s (RequeueAfter: not a failure).", v.Status, b.Controller, text.Countdown(k.NextRetryAt, now)), nil
	case api.StateQueued, api.StateRunning:
		return fmt.Sprintf("%s: controller %q is %s it now.", v.Status, b.Controller, map[api.State]string{api.StateQueued: "about to reconcile", api.StateRunning: "reconciling"}[k.State]), nil
	case api.StateUnknown:
		// Not seen lately: its retry was due and the log shows nothing
		// since. A success is not logged at the default verbosity, so
		// only a retry watched in the log tells which it was.
		s := fmt.Sprintf("%s: not seen lately: controller %q last failed on it %s (%s), and its log shows nothing of it since its retry was due: it may have succeeded, which the log does not show, or stopped being retried (%s)",
			v.Status, b.Controller, text.Ago(k.LastReconcileAt, now), explain.FailuresText(*k, nil), precision)
		a.fixSteps = nonEmpty(fix)
		return s + ".", nonEmpty("To know, retry it and read its log again (a new failure shows there; none means it succeeded): "+retryNow, fix)
	}
	if v.Status == Current {
		return fmt.Sprintf("Current: controller %q reconciled it without error: nothing to wait for.", b.Controller), nil
	}
	return fmt.Sprintf("%s: controller %q's last reconcile succeeded, yet the status says: %s.", v.Status, b.Controller, v.Message),
		[]string{"The controller is not backing off: what the status names is what it waits for."}
}

// sentence starts s with a capital and ends it with a period.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			out = append(out, x)
		}
	}
	return out
}

// oneLine folds a multi-line message (Cluster API writes "* item" lists).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// statusWritten says whether a controller has written v's object's status:
// it has conditions or an observed generation. Not a CRD's default of -1
// (Flux's) or 0, which the API server writes before any controller.
func statusWritten(v objstatus.Verdict) bool {
	return len(v.Conditions) > 0 || v.ObservedGeneration != nil && *v.ObservedGeneration > 0
}

// inNamespace is the namespace flag of a command about an object in ns,
// or none for a cluster-scoped one.
func inNamespace(ns string) []explain.Flag {
	if ns == "" {
		return nil
	}
	return []explain.Flag{{Name: "n", Value: ns}}
}

// kickKind is the kick of the object behind key, of kind gk, named by its
// kind: a log the user gave says none.
func kickKind(gk schema.GroupKind, key string) explain.Command {
	return explain.Command{Verb: "kick", Flags: []explain.Flag{{Name: "kind", Value: kindFlag(gk.Kind, gk.Group)}}, Words: []string{key}}
}

// command is c rendered for s (explain.Command.Render, the one place a
// flag is spelt), run as prog.
func command(prog string, c explain.Command, s explain.Session) string {
	s.Program = prog
	return c.Render(s)
}

// quoted is cmd in backquotes, as describe quotes the commands of its
// findings: a sentence that says it is wrapped between words on a
// terminal, and a printer keeps what is quoted on one line (pasted, a
// line break inside a command runs the half before it).
func quoted(cmd string) string {
	return "`" + cmd + "`"
}
