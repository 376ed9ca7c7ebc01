package view

import (
	"strconv"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// toggleStates is the states the number keys toggle, "1" for the first:
// api.States, and for a log source unknown after them (query.LogStates),
// the state only a log's keys can be in. From the one list of states, so
// that a state added to it gets its key, its count in the header and its
// place in the help.
func toggleStates(fromLogs bool) []api.State {
	if fromLogs {
		return query.LogStates
	}
	return api.States
}

// ToggleStates is the states this source's number keys toggle.
func (c *Common) ToggleStates() []api.State { return toggleStates(c.source.fromLogs) }

// stateKeyList is the keys that toggle states: "1" to "n".
func stateKeyList(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = strconv.Itoa(i + 1)
	}
	return keys
}

// stateKeyHelp is how the help names them: "1-6", "1-7" for a log.
func stateKeyHelp(n int) string { return "1-" + strconv.Itoa(n) }

// setStates binds the number keys to n states (see toggleStates).
func (k *KeyMap) setStates(n int) {
	k.States.SetKeys(stateKeyList(n)...)
	k.States.SetHelp(stateKeyHelp(n), "toggle state")
}
