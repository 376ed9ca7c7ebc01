package logs

import "bytes"

// spacedFields is where a zap console line's trailing JSON fields begin
// when the tab before them became spaces (a paste: GitHub, a terminal and
// most editors turn a tab into spaces), -1 when the line has none: an
// object opening `{"` after two spaces or more, that closes at the
// line's end and is whole JSON members (eachMember), so that a message
// that merely holds a brace is left as it is.
func spacedFields(rest []byte) int {
	i := bytes.Index(rest, []byte(`  {"`))
	if i < 0 || rest[len(rest)-1] != '}' {
		return -1
	}
	i += 2
	if stop, ok := eachMember(rest, i, func(_, _ []byte) bool { return true }); !ok || stop != len(rest) {
		return -1
	}
	return i
}
