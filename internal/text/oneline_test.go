package text

import (
	"strings"
	"testing"
)

// OneLine is text for a terminal: no control character of a hostile
// message passes, nor a bidirectional override.
func TestOneLineEscapes(t *testing.T) {
	hostile := "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[H boom\x00 \u009b31m \x9b \rover \u202eevil"
	if got := OneLine(hostile, 0); strings.ContainsAny(got, "\x1b\x00\x07\r\u009b\u202e") {
		t.Errorf("OneLine(hostile) = %q: control characters passed", got)
	}
}
