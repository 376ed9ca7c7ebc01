package logs

// wordsEvidence is what in r's words made the generic reader read it: said
// says its retry or drop words (else it opens with the failure), level
// how it was logged (levelWords).
func wordsEvidence(r Record, said bool, level string) string {
	switch {
	case r.GaveUp:
		return "its words, " + level + ": a failure, and that the key was given up on, " + r.Message
	case said:
		return "its words, " + level + ": a failure, and that the key will be retried, " + r.Message
	}
	return "its words, " + level + ": " + r.Message
}

// levelWords says how a line read by its words was logged: the generic
// reader also reads an info line with an error field, and a line of a
// format with no level (Go's log) that says its retry; describe said
// "at error or warning level" of both.
func levelWords(f *fields, errField string) string {
	switch {
	case f.severe:
		return "at error or warning level"
	case errField != "":
		return "at info level, with an error field"
	case !f.leveled:
		return "in a format that shows no level"
	}
	return "at info level"
}
