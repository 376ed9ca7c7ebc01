package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// validateSelection checks --state and -q/--filter with the query engine
// the servers parse them with, so that what the CLI accepts is what they
// accept, and says which flag: a state of a log source (unknown) passes,
// for --from-logs; the endpoint refuses it, naming --state.
func validateSelection(states []string, filter string) error {
	if _, err := query.ParseStates(states, query.LogStates); err != nil {
		for _, s := range stateParts(states) {
			if !slices.Contains(query.LogStates, api.State(s)) {
				return fmt.Errorf("--state: %q is not a state; use %s", s, stateHelp)
			}
		}
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

// stateHelp lists the states --state takes, as every flag help and error
// says them: unknown only in log mode, where a key gone quiet after an
// error may or may not have recovered.
var stateHelp = api.StateNames() + "; " + string(api.StateUnknown) + " with --from-logs"

// errUnknownState is an endpoint's refusal of --state unknown, said the
// way a user can act on.
var errUnknownState = errors.New("--state: unknown is a state of log mode (--from-logs): an instrumented controller knows every key's state")

// stateParts is --state's values split as the engine splits them.
func stateParts(states []string) []string {
	var out []string
	for _, v := range states {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// withUnknownState refuses --state unknown where the keys come from an
// endpoint (forget is the instrument's alone): it would be refused by the
// server, in words that list the states without saying why.
func withUnknownState(states []string) error {
	if slices.Contains(stateParts(states), string(api.StateUnknown)) {
		return errUnknownState
	}
	return nil
}
