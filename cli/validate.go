package cli

import (
	"errors"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api/query"
)

// validateSelection checks --state and -q/--filter with the query engine
// the servers parse them with, so that what the CLI accepts is what they
// accept, and says which flag: a state of a log source (unknown) passes,
// for --from-logs; the endpoint refuses it, naming --state.
func validateSelection(states []string, filter string) error {
	if _, err := query.ParseStates(states, query.LogStates); err != nil {
		return flagError(err)
	}
	if err := query.CheckPattern("q", filter); err != nil {
		return flagError(err)
	}
	return nil
}

// flagError says an engine's error under the flag of its field.
func flagError(err error) error {
	e, ok := errors.AsType[*query.Error](err)
	if !ok {
		return err
	}
	msg, _ := strings.CutPrefix(e.Msg, `parameter "`+e.Field+`": `)
	if flag, ok := paramFlags[e.Field]; ok {
		return errors.New(flag + ": " + msg)
	}
	return err
}

// parseStates is --state as the engine reads a state list (validated first).
func parseStates(s []string) []api.State {
	states, _ := query.ParseStates(s, query.LogStates)
	return states
}
