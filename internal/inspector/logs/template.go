package logs

import "strings"

// template is a message's shape: its words with the variable parts masked
// (keys, names, UIDs, numbers, durations, quoted strings: any word with a
// digit, a slash, a quote or a bracket), up to its error (the first ": ",
// after which the cause varies), as log-template miners such as Drain
// group lines. Two lines of one template are the same statement of the
// program; two of different templates naming one key at one moment are
// two statements of one attempt (attempt.go).
func template(msg string) string {
	if i := strings.Index(msg, ": "); i >= 0 {
		msg = msg[:i]
	}
	var b strings.Builder
	for w := range strings.FieldsSeq(msg) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if strings.ContainsAny(w, "0123456789/'\"<>[]{}()=") {
			b.WriteString("<*>")
			continue
		}
		b.WriteString(w)
	}
	return b.String()
}
