package text

import (
	"strconv"
	"strings"
)

// ReadBack is the text a Printable output stands for: a name holding
// control characters is shown with Go escapes ("demo/a\x1bb"), a user
// copies it as shown, and ReadBack turns it into the name it escaped, so
// that what the user sees is what they can type. It reports false when s
// holds no escape (or is not such a copy). Printable never writes \" : a
// quote in s is the text's own.
func ReadBack(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return "", false
	}
	k, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
	if err != nil || k == s {
		return "", false
	}
	return k, true
}
