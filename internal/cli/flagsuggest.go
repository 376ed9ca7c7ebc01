package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// suggestFlag adds to pflag's "unknown flag: --stat" the command's flag
// the user most likely meant (did you mean --state?), as cobra does for
// a misspelt command: within two edits, or the one flag it begins. A flag
// that other commands have (get --file, which top and snapshot take) is
// told by its meaning instead: which commands take it and for what, and
// this command's flags that take the same thing; the nearest spelling
// there (--filter) would mean something else.
func suggestFlag(cmd *cobra.Command, err error) error {
	ne, ok := errors.AsType[*pflag.NotExistError](err)
	if !ok {
		return err
	}
	if shorts := ne.GetSpecifiedShortnames(); shorts != "" {
		// -x, or x in a group such as -Ax: the letter is the name.
		for _, name := range habits[ne.GetSpecifiedName()[:1]] {
			if f := cmd.Flags().Lookup(name); f != nil && !f.Hidden {
				return fmt.Errorf("%w; did you mean %s? (see %s --help)", err, flagName(f), cmd.CommandPath())
			}
		}
		return err
	}
	name := ne.GetSpecifiedName() // without the dashes and any =value
	if instead, ok := insteadOf[cmd.Name()+" --"+name]; ok {
		return fmt.Errorf("%w; %s", err, instead)
	}
	if elsewhere := flagElsewhere(cmd, name); elsewhere != "" {
		return fmt.Errorf("%w; %s (see %s --help)", err, elsewhere, cmd.CommandPath())
	}
	if best := closestFlag(cmd.Flags(), name); best != "" {
		return fmt.Errorf("%w; did you mean --%s? (see %s --help)", err, best, cmd.CommandPath())
	}
	return err
}

// flagElsewhere says which other commands take --name and what it does
// there, and which of cmd's flags take what it names (a FILE): "" when no
// other command has it.
func flagElsewhere(cmd *cobra.Command, name string) string {
	var uses []string
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || !sub.IsAvailableCommand() {
				continue
			}
			if f := sub.LocalFlags().Lookup(name); sub != cmd && f != nil && !f.Hidden {
				// The usage up to its first aside: what the flag does there.
				what, _, _ := strings.Cut(f.Usage, " (")
				uses = append(uses, fmt.Sprintf("%s %s (%s)", strings.TrimPrefix(sub.CommandPath(), cmd.Root().CommandPath()+" "), flagName(f), lowerFirst(what)))
			}
			visit(sub)
		}
	}
	visit(cmd.Root())
	if len(uses) == 0 {
		return ""
	}
	msg := fmt.Sprintf("%s has no --%s, other commands do: %s", cmd.Name(), name, strings.Join(uses, ", "))
	// This command's flags that take the thing the flag names: a FILE.
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(strings.ToUpper(name)) + `\b`)
	var here []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && word.MatchString(f.Usage) {
			here = append(here, "--"+f.Name)
		}
	})
	if len(here) > 0 {
		msg += fmt.Sprintf("; %s takes a %s with %s", cmd.Name(), strings.ToUpper(name), orWords(here))
	}
	return msg
}

// lowerFirst is s with its first letter lower-cased, to quote a flag's
// usage inside a sentence.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// orWords is "a", "a or b", "a, b or c".
func orWords(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// insteadOf is what to do instead of a flag a command cannot have, by what
// the user wanted of it: the demo's address is where it listens; forget
// resets a key in the controller's queue, which a log cannot reach, and
// the retry now they wanted is kick's, the one command that acts in log
// mode. Said first, not among every command that reads a log (none of
// which retries anything).
var insteadOf = map[string]string{
	// The demo is the endpoint the others reach with --addr: it listens.
	"demo --addr": "demo serves its endpoint at --listen (127.0.0.1:8082 by default; port 0 picks a free one), " +
		"which the other commands reach with --addr: `kubectl backoff demo --listen 127.0.0.1:18082`, then `kubectl backoff top --addr 127.0.0.1:18082` (see kubectl backoff demo --help)",
	"forget --from-logs": "forget cannot work from a log: it resets a key in the controller's queue, which a log cannot reach. " +
		"`kubectl backoff kick --from-logs LOG KEY...` retries the objects now: it touches them, so that the controller's watch reconciles them (see kubectl backoff kick --help)",
}

// habits are the flags a kubectl user's fingers give a shorthand to where
// a command has none: snapshot's file is -f, not get's -o.
var habits = map[string][]string{"o": {"file"}}

// flagName is f as --help shows it: -f/--file.
func flagName(f *pflag.Flag) string {
	if f.Shorthand != "" {
		return "-" + f.Shorthand + "/--" + f.Name
	}
	return "--" + f.Name
}

// closestFlag is the visible flag of fs nearest to name: the one it is a
// prefix of when only one is, else the one within two edits, the fewest
// winning; "" when none is close or two tie.
func closestFlag(fs *pflag.FlagSet, name string) string {
	var prefixed []string
	best, bestD, tie := "", 3, false
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			prefixed = append(prefixed, f.Name)
		}
		switch d := editDistance(name, f.Name); {
		case d < bestD:
			best, bestD, tie = f.Name, d, false
		case d == bestD:
			tie = true
		}
	})
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	if tie {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
