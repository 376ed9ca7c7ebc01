package logs

import "strings"

// statedWords are a line's own words that state its retry delay, for
// describe to quote instead of a phrase of another project's: the clause
// of msg that ends at end (just past the duration), from the last
// sentence, comma, colon, semicolon or parenthesis before it.
// "Failed to process service ns/x. Retrying in 2m40s" gives
// "Retrying in 2m40s"; Flux's "…failed after 21ms, next try in 1m0s"
// gives "next try in 1m0s".
func statedWords(msg string, end int) string {
	if end < 0 || end > len(msg) {
		return ""
	}
	head := msg[:end]
	start := 0
	for _, sep := range []string{". ", ", ", ": ", "; ", "("} {
		if i := strings.LastIndex(head, sep); i >= 0 && i+len(sep) > start {
			start = i + len(sep)
		}
	}
	return strings.TrimSpace(head[start:])
}

// statedWordsOf is statedWords for the last dur in msg (a dialect file's
// "retry" group).
func statedWordsOf(msg, dur string) string {
	i := strings.LastIndex(msg, dur)
	if i < 0 {
		return dur
	}
	return statedWords(msg, i+len(dur))
}
