package logs

import "strconv"

// readPhrases is what the generic reader read a failure by, for
// --explain-lines: its failure phrase (else its drop or retry words),
// quoted, then the drop or retry words after it, or that the message
// opens with it when none is said.
func readPhrases(msg string, fail, drop, retry []int, said bool) string {
	var m string
	switch {
	case fail != nil:
		m = strconv.Quote(msg[fail[0]:fail[1]])
	case drop != nil:
		m = strconv.Quote(msg[drop[0]:drop[1]])
	default:
		m = strconv.Quote(msg[retry[0]:retry[1]])
	}
	switch {
	case drop != nil && fail != nil:
		m += " … " + strconv.Quote(msg[drop[0]:drop[1]])
	case retry != nil && fail != nil:
		m += " … " + strconv.Quote(msg[retry[0]:retry[1]])
	case !said:
		m += " (opens the message, before the key and its error)"
	}
	return m
}
