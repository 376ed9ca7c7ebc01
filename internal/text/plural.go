package text

import (
	"strconv"
	"strings"
)

// Plural is "1 failure", "3 failures", "2 retries", "1,000 keys": the count
// and its noun, for every message that says how many (the CLI's and the UI's too).
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if w, ok := strings.CutSuffix(word, "y"); ok && !strings.ContainsAny(w[len(w)-1:], "aeiou") {
		return Thousands(n) + " " + w + "ies"
	}
	return Thousands(n) + " " + word + "s"
}

// Thousands formats n with thousands separators: 100,000. The UI's counts
// and the diagnoses' say numbers the same way.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
