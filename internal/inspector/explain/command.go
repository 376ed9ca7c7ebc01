package explain

import (
	"regexp"
	"slices"
	"strings"
)

// Command is a `kubectl backoff` command a finding suggests, kept as a
// value: the finding knows the verb, its flags and its words, but not how
// the user attached (--addr, a TARGET and -n) nor, for a log's key, which
// workload wrote the log. Render adds those, once, for the caller that
// knows them, and is the one place a flag is spelt.
type Command struct {
	// Verb is the subcommand: forget, kick.
	Verb string `json:"verb"`
	// Target says the command names the workload whose log was read right
	// after the verb (kick TARGET …): a log's key is kicked through it.
	Target bool `json:"target,omitempty"`
	// Flags are the command's own flags, in order.
	Flags []Flag `json:"flags,omitempty"`
	// Words are the command's arguments after its flags, shell-quoted.
	Words []string `json:"words,omitempty"`
}

// Flag is one flag of a suggested command: its name without dashes (one
// letter for a shorthand: n), and its value (shell-quoted; none for a
// switch).
type Flag struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

// Session is how the commands of a diagnosis must be run to reach what it
// is about. The zero Session renders them as bare as the diagnosis knows.
type Session struct {
	// Attach are shell words (already quoted) that go right after the verb:
	// how the user attached. AttachFlags follow them: the flags of how a
	// command reaches what it acts on (the pods' namespace, an address),
	// as data.
	Attach      string
	AttachFlags []Flag
	// Key and Controller are the key a key's diagnosis is about and its
	// controller: the commands it suggests act on that key, so they name
	// both after Attach. Empty for a controller's diagnosis.
	Key, Controller string
	// Program is how the user runs the plugin; "kubectl backoff" when empty.
	Program string
	// Target is the workload whose log was read ("deploy/x -n ns"); empty
	// leaves the word TARGET for the user to fill in (a log read from a file
	// does not say which workload wrote it).
	Target string
	// LogFile is the saved log that was read, when it was a file: a
	// command that names a TARGET reads the file again instead
	// (kick --from-logs FILE KEY finds each key's kind in it), so no
	// TARGET is left for the user to guess. Empty for a TARGET's logs or
	// stdin.
	LogFile string
}

// Render is the command line c, for s.
func (c Command) Render(s Session) string {
	w := []string{"kubectl backoff", c.Verb}
	if s.Program != "" {
		w[0] = s.Program
	}
	file := c.Target && strings.TrimSpace(s.Target) == "" && s.LogFile != ""
	if c.Target && !file {
		t := strings.TrimSpace(s.Target)
		if t == "" {
			t = "TARGET"
		}
		w = append(w, t)
	}
	if a := s.Words(); a != "" {
		w = append(w, a)
	}
	if s.Key != "" {
		w = append(w, ShellQuote(s.Key))
	}
	if s.Controller != "" {
		w = append(w, Flag{"controller", ShellQuote(s.Controller)}.String())
	}
	for _, f := range c.Flags {
		if file && f.Name == "from-logs" && f.Value == "" {
			f.Value = ShellQuote(s.LogFile)
		}
		w = append(w, f.String())
	}
	return strings.Join(append(w, c.Words...), " ")
}

// Words are Attach and AttachFlags as a command line says them: what an
// object or the controller is reached by ("rs/x -n demo").
func (s Session) Words() string {
	w := []string{}
	if a := strings.TrimSpace(s.Attach); a != "" {
		w = append(w, a)
	}
	for _, f := range s.AttachFlags {
		w = append(w, f.String())
	}
	return strings.Join(w, " ")
}

// String is the flag as a command line spells it: --name value, -n value.
func (f Flag) String() string {
	dashes := "--"
	if len(f.Name) == 1 {
		dashes = "-"
	}
	if f.Value == "" {
		return dashes + f.Name
	}
	return dashes + f.Name + " " + f.Value
}

// shellSafe matches words a POSIX shell takes as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=,@%+-]+$`)

// ShellQuote quotes s for a command line the user copies: as it is when
// the shell takes it so, else in single quotes.
func ShellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// retryNow is the command that retries a key the endpoint serves at once.
var retryNow = Command{Verb: "forget", Flags: []Flag{{Name: "requeue"}}}

// IsRetryNow reports whether c retries its key at once through the queue
// (a caller with its own way to do it, the TUI's r, says that instead).
func (c *Command) IsRetryNow() bool {
	return c != nil && c.Verb == retryNow.Verb && !c.Target && slices.Equal(c.Flags, retryNow.Flags) && len(c.Words) == 0
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
