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
	d.Summary = WithAttach(d.Summary, args)
	d.Details = detailsWithAttach(d.Details, args)
	d.Findings = findingsWithAttach(d.Findings, args)
	return d
}

// WithAttach is the controller's diagnosis with args in every command it
// suggests (WithAttach).
func (d ControllerDiagnosis) WithAttach(args string) ControllerDiagnosis {
	d.Summary = WithAttach(d.Summary, args)
	d.Details = detailsWithAttach(d.Details, args)
	d.Findings = findingsWithAttach(d.Findings, args)
	return d
}

// detailsWithAttach copies details with args in their commands: the
// diagnosis given is left as it was.
func detailsWithAttach(details []string, args string) []string {
	if details == nil {
		return nil
	}
	out := make([]string, len(details))
	for i, s := range details {
		out[i] = WithAttach(s, args)
	}
	return out
}

// findingsWithAttach copies findings with args in their commands.
func findingsWithAttach(findings []Finding, args string) []Finding {
	if findings == nil {
		return nil
	}
	out := make([]Finding, len(findings))
	for i, f := range findings {
		out[i] = Finding{Code: f.Code, Message: WithAttach(f.Message, args)}
	}
	return out
}
