package explain

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// ErrorClassText is an error's class as a reader is told it beside the
// error: transient, permanent, or "class unknown". The bare "unknown" next
// to a quoted error ("Last error (unknown): "quota exceeded"", "quota
// exceeded [unknown]") read as an error nobody knows, not as one whose kind
// nothing in its chain says.
func ErrorClassText(class string) string {
	if class == api.ClassUnknown {
		return "class unknown"
	}
	return class
}
