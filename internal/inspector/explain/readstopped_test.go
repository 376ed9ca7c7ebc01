package explain

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A followed log whose read stopped short says why second, where a narrow
// header still shows it, in place of "input ended".
func TestReadFactsStopped(t *testing.T) {
	const why = "read stopped (unexpected EOF): cut short or corrupt, the rest unknown; give the whole log again"
	facts := ReadFacts(&api.LogRead{Lines: 10, Ended: true, Stopped: why})
	if len(facts) < 2 || facts[1].Short != why || !facts[1].Warn {
		t.Fatalf("facts %+v; want the stopped read second, as a warning", facts)
	}
	for _, f := range facts {
		if f.Short == "input ended" {
			t.Errorf("facts %+v say the input ended beside why the read stopped", facts)
		}
	}
}
