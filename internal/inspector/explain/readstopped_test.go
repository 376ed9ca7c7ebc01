package explain

import (
	"strings"
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

// Counts read as the rest of the outputs write them, with thousands
// separators: the header said "log 4202 lines" beside a note's "read 4,202
// lines".
func TestReadFactsThousands(t *testing.T) {
	facts := ReadFacts(&api.LogRead{Lines: 4202, Recognised: map[string]int{"controller-runtime (JSON)": 4201}, OutOfOrder: 1400, Unreadable: 1000})
	var got []string
	for _, f := range facts {
		got = append(got, f.Short)
	}
	want := []string{"4,202 lines", "controller-runtime (JSON) 4,201", "1,400 lines out of order", "1,000 failure lines unreadable"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("facts %q, want %q", got, want)
	}
}
