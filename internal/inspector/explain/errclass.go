package explain

import (
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// ErrorClassText is an error's class as a reader is told it beside the
// error: transient or permanent, and nothing ("") when unknown or not
// given. The bare "unknown" next to a quoted error ("quota exceeded
// [unknown]") read as an error nobody knows, and "[class unknown]" beside a
// finding that the error looks permanent read as a second classification
// contradicting the first: an error has one class, said the same way
// everywhere, and none is said when nothing in its chain or words gives one.
func ErrorClassText(class string) string {
	if class == api.ClassUnknown {
		return ""
	}
	return class
}

// ClassCell is an error's class in a table's CLASS column: its
// ErrorClassText, "-" when that is nothing, as every column says "none".
func ClassCell(class string) string {
	if c := ErrorClassText(class); c != "" {
		return c
	}
	return "-"
}

// PermanentAmong says that permanent of the count keys a forget acts on (a
// retry, with requeue) last failed on a permanent error, in the words the
// one key's dialog says it of its key: "3 of them fail on a permanent
// error: forgetting will not help them; their next attempt fails the same
// way unless their object changed." A bulk forget's count alone read as a
// fix for every key it named. "" when permanent is 0.
func PermanentAmong(permanent, count int, requeue bool) string {
	if permanent <= 0 {
		return ""
	}
	who, them, their := fmt.Sprintf("%d of them fail", permanent), "them", "their"
	switch {
	case count == 1:
		who, them, their = "It fails", "it", "its"
	case permanent >= count:
		who = "All of them fail"
	}
	if requeue {
		return who + " on a permanent error: a retry will fail " + them + " the same way unless " + their + " object changed."
	}
	return who + " on a permanent error: forgetting will not help " + them + "; " + their + " next attempt fails the same way unless " + their + " object changed."
}
