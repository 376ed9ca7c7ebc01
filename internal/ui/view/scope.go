package view

import (
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Names of what a view shows, for its messages.

// InStates names states for messages: "in state backoff or failed".
func InStates(states []api.State) string {
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	return "in state " + strings.Join(names, " or ")
}

// ScopeName names a controller scope: "every controller" for all.
func ScopeName(controller string) string {
	if controller == "" {
		return "every controller"
	}
	return text.Cell(controller, 0) // a log's controller name is its text
}
