package cli

import (
	"strconv"
	"strings"
)

// unescapeKey reads a key as the tool printed it: a key holding control
// characters is shown with Go escapes ("demo/a\x1bb", by
// text.Printable), and a user copies it from get's table into describe
// as shown. It returns the key the escapes stand for, and false when s has
// none (or is not such a copy).
func unescapeKey(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return "", false
	}
	// Printable never writes \" : a quote in s is the key's own.
	k, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
	if err != nil || k == s {
		return "", false
	}
	return k, true
}
