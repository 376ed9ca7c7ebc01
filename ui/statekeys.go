package ui

import (
	"strconv"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// stateKeyList is the keys that toggle the states, "1" for api.States[0]
// and on: from the one list of states, so that a state added to it gets
// its key and its place in the help.
func stateKeyList() []string {
	keys := make([]string, len(api.States))
	for i := range api.States {
		keys[i] = strconv.Itoa(i + 1)
	}
	return keys
}

// stateKeyHelp is how the help names them: "1-6".
func stateKeyHelp() string { return "1-" + strconv.Itoa(len(api.States)) }
