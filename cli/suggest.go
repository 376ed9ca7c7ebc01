package cli

import (
	"regexp"
	"strings"
)

// shellSafe matches words a POSIX shell takes as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=,@%+-]+$`)

// shellQuote quotes s for a command line the user copies: as it is when
// the shell takes it so, else in single quotes.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
