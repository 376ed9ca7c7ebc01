package explain

import (
	"regexp"
	"strings"
)

// suggested finds the commands a diagnosis suggests: "`kubectl backoff
// VERB", each in backquotes so that the reader copies the whole.
var suggested = regexp.MustCompile("`kubectl backoff [a-z]+")

// WithAttach returns text with args inserted right after the verb of
// every command it suggests: "`kubectl backoff forget --controller x …`"
// becomes "`kubectl backoff forget --addr 127.0.0.1:8082 --controller x
// …`". The diagnosis cannot know how the user attached (a TARGET and -n,
// --addr), and a command copied without it fails ("no cluster
// configured"); the caller that does know says it here. args are shell
// words, already quoted; empty leaves text as it is.
func WithAttach(text, args string) string {
	if args = strings.TrimSpace(args); args == "" {
		return text
	}
	return suggested.ReplaceAllStringFunc(text, func(cmd string) string { return cmd + " " + args })
}

// WithAttach is the diagnosis with args in every command it suggests
// (WithAttach). For a key's diagnosis the args may name the key and its
// --controller too: the only commands it suggests act on that key.
func (d Diagnosis) WithAttach(args string) Diagnosis {
	return d.mapText(func(s string) string { return WithAttach(s, args) })
}

// WithLogTarget is a log key's diagnosis with target — how the user named
// the workload whose log was read: "deploy/x -n ns" — in place of the
// TARGET its kick suggestion leaves open. Empty leaves it open: a log read
// from a file does not say which workload wrote it.
func (d Diagnosis) WithLogTarget(target string) Diagnosis {
	if target = strings.TrimSpace(target); target == "" {
		return d
	}
	return d.mapText(func(s string) string { return strings.ReplaceAll(s, kickTarget, "`kubectl backoff kick "+target+" ") })
}

// kickTarget is where a log key's kick suggestion (retryNowFor) names
// the workload.
const kickTarget = "`kubectl backoff kick TARGET "

// WithAttach is the controller's diagnosis with args in every command it
// suggests (WithAttach).
func (d ControllerDiagnosis) WithAttach(args string) ControllerDiagnosis {
	f := func(s string) string { return WithAttach(s, args) }
	d.Summary = f(d.Summary)
	d.Details = mapDetails(d.Details, f)
	d.Findings = mapFindings(d.Findings, f)
	return d
}

// mapText is d with f applied to every sentence it says; the diagnosis
// given is left as it was.
func (d Diagnosis) mapText(f func(string) string) Diagnosis {
	d.Summary = f(d.Summary)
	d.Details = mapDetails(d.Details, f)
	d.Findings = mapFindings(d.Findings, f)
	return d
}

// mapDetails copies details with f applied to each.
func mapDetails(details []string, f func(string) string) []string {
	if details == nil {
		return nil
	}
	out := make([]string, len(details))
	for i, s := range details {
		out[i] = f(s)
	}
	return out
}

// mapFindings copies findings with f applied to their messages.
func mapFindings(findings []Finding, f func(string) string) []Finding {
	if findings == nil {
		return nil
	}
	out := make([]Finding, len(findings))
	for i, fd := range findings {
		out[i] = Finding{Code: fd.Code, Message: f(fd.Message)}
	}
	return out
}
