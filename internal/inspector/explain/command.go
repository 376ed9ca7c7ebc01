package explain

import "strings"

// Command is a `kubectl backoff` command a finding suggests, kept as a
// value: the finding knows the verb and its own words, but not how the user
// attached (--addr, a TARGET and -n) nor, for a log's key, which workload
// wrote the log. Render adds those, once, for the caller that knows them.
type Command struct {
	// Verb is the subcommand: forget, kick.
	Verb string `json:"verb"`
	// Target says the command names the workload whose log was read right
	// after the verb (kick TARGET …): a log's key is kicked through it.
	Target bool `json:"target,omitempty"`
	// Words are the command's own words after the verb, shell-quoted.
	Words []string `json:"words,omitempty"`
}

// Session is how the commands of a diagnosis must be run to reach what it
// is about. The zero Session renders them as bare as the diagnosis knows.
type Session struct {
	// Attach are shell words (already quoted) that go right after the verb:
	// how the user attached, and for a key's diagnosis the key and its
	// --controller, since the commands it suggests act on that key.
	Attach string
	// Target is the workload whose log was read ("deploy/x -n ns"); empty
	// leaves the word TARGET for the user to fill in (a log read from a file
	// does not say which workload wrote it).
	Target string
}

// Render is the command line c, for s.
func (c Command) Render(s Session) string {
	w := []string{"kubectl", "backoff", c.Verb}
	if c.Target {
		t := strings.TrimSpace(s.Target)
		if t == "" {
			t = "TARGET"
		}
		w = append(w, t)
	}
	if a := strings.TrimSpace(s.Attach); a != "" {
		w = append(w, a)
	}
	return strings.Join(append(w, c.Words...), " ")
}

// retryNow is the command that retries a key the endpoint serves at once.
var retryNow = Command{Verb: "forget", Words: []string{"--requeue"}}

// IsRetryNow reports whether c retries its key at once through the queue
// (a caller with its own way to do it, the TUI's r, says that instead).
func (c *Command) IsRetryNow() bool {
	return c != nil && c.Verb == retryNow.Verb && !c.Target && strings.Join(c.Words, " ") == "--requeue"
}

// suggestion is the finding code whose advice is before, the command c in
// backquotes, then after.
func suggestion(code, before string, c Command, after string) Finding {
	f := Finding{Code: code, Command: &c, before: before, after: after}
	f.Message = f.Saying("`" + c.Render(Session{}) + "`")
	return f
}

// Saying is the finding's advice with cmd in place of its command: the
// command for a session (For), or another way to do it (the TUI's key).
// Without a command it is the message.
func (f Finding) Saying(cmd string) string {
	if f.Command == nil {
		return f.Message
	}
	return f.before + cmd + f.after
}

// For is the finding with its command rendered for s.
func (f Finding) For(s Session) Finding {
	if f.Command != nil {
		f.Message = f.Saying("`" + f.Command.Render(s) + "`")
	}
	return f
}

// For is the diagnosis with every command it suggests rendered for s.
func (d Diagnosis) For(s Session) Diagnosis {
	d.Findings = findingsFor(d.Findings, s)
	return d
}

// For is the controller's diagnosis with every command it suggests
// rendered for s.
func (d ControllerDiagnosis) For(s Session) ControllerDiagnosis {
	d.Findings = findingsFor(d.Findings, s)
	return d
}

// findingsFor copies findings rendered for s; the slice given is left as
// it was.
func findingsFor(findings []Finding, s Session) []Finding {
	if findings == nil {
		return nil
	}
	out := make([]Finding, len(findings))
	for i, f := range findings {
		out[i] = f.For(s)
	}
	return out
}

// String is the finding as its code and advice, for logs and tests.
func (f Finding) String() string { return f.Code + ": " + f.Message }
