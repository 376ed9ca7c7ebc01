package logs

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// Classify says whether an error message looks transient (retrying can fix
// it), permanent (it cannot), or unknown: a log line has only the error's
// text, not its chain, so the class is read from its words, as the
// instrument reads an error it has no type for (api.ClassifyText). Terminal
// errors are permanent whatever they say: controller-runtime will not retry
// them.
func Classify(msg string, terminal bool) string {
	if terminal {
		return api.ClassPermanent
	}
	return api.ClassifyText(msg)
}
