package logs

import (
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A log line has only the error's text, not its chain, so the class is read
// from words in it, and only where they are unambiguous: a message matching
// both lists, or neither, is unknown. The words are those of the Kubernetes
// API's status reasons and Go's network errors, as err.Error() prints them.
var (
	transientWords = []string{
		"connection refused", "connection reset", "i/o timeout", "timeout",
		"timed out", "deadline exceeded", "too many requests", "throttl",
		"service unavailable", "503", "502", "504", "internal error",
		"the object has been modified", "conflict", "tls handshake", "unexpected eof",
		"no such host", "temporarily unavailable", "try again",
	}
	permanentWords = []string{
		"invalid", "forbidden", "not found", "unauthorized", "is immutable",
		"admission webhook", "denied the request", "unsupported", "no matches for kind",
		"already exists", "bad request",
	}
)

// Classify says whether an error message looks transient (retrying can fix
// it), permanent (it cannot), or unknown, from its text alone. Terminal
// errors are permanent whatever they say: controller-runtime will not retry
// them. It is deliberately conservative.
func Classify(msg string, terminal bool) string {
	if terminal {
		return api.ClassPermanent
	}
	m := strings.ToLower(msg)
	t, p := containsAny(m, transientWords), containsAny(m, permanentWords)
	switch {
	case t && !p:
		return api.ClassTransient
	case p && !t:
		return api.ClassPermanent
	}
	return api.ClassUnknown
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
