package logs

import (
	"regexp"
	"strings"
	"unicode"
)

// handlerWordsCut is err without the handler's words around it: a retry
// clause it ends with, and, on a drop line, the reason for giving up.
func handlerWordsCut(err, msg string, retry []int, gaveUp bool) string {
	err = withoutTrailingRetry(err, msg, retry)
	if gaveUp {
		err = withoutGiveUpReason(err)
	}
	return err
}

// withoutTrailingRetry is err without the retry words the line ends with,
// when err is the message's tail: tidb-operator's "…'s pd status sync
// failed,can't scale out now, requeuing" failed with what comes before
// ", requeuing"; the words are the handler's, not the error's.
func withoutTrailingRetry(err, msg string, retry []int) string {
	if retry == nil || err == "" || !strings.HasSuffix(msg, err) {
		return err
	}
	start := len(msg) - len(err)
	// The phrase may match a word's stem ("requeu" of "requeuing").
	tail := strings.TrimLeftFunc(msg[retry[1]:], unicode.IsLetter)
	if retry[0] <= start || strings.TrimRight(tail, ". ") != "" {
		return err
	}
	// Only a clause set off by a comma or semicolon: "exception. Will
	// retry." (kopf) is the error's own sentence.
	head := strings.TrimRight(msg[start:retry[0]], " ")
	if !strings.HasSuffix(head, ",") && !strings.HasSuffix(head, ";") {
		return err
	}
	if cut := strings.TrimRight(head, " ,;"); cut != "" {
		return cut
	}
	return err
}

// giveUpReason is a drop line's own reason at the end of its error:
// volcano's "Dropping job<ns/x> out of the queue: %v because max retries
// has reached" put the handler's words after the error's.
var giveUpReason = regexp.MustCompile(`(?i)[,;]?\s+(because|as|since)\s+(the\s+)?max(imum)?\s+retr(y|ies)\b[^:]*$`)

// withoutGiveUpReason is err without a trailing reason for giving up that
// names the retry budget; the error is what came before it.
func withoutGiveUpReason(err string) string {
	if loc := giveUpReason.FindStringIndex(err); loc != nil && loc[0] > 0 {
		return err[:loc[0]]
	}
	return err
}
