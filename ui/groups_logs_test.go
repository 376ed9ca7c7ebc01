package ui

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestLogGroupsCountUnknownKeys: on a log, g groups the errors of the keys
// gone quiet after one (unknown) with those of the failing ones. logWorld's
// 5 unknown keys failed with the same refusal as demo/last (backoff): 9
// keys with an error in all, the refusal's group 6 of them. Before, g read
// backoff,failed alone and a log whose keys were all unknown showed "no keys
// with an error".
func TestLogGroupsCountUnknownKeys(t *testing.T) {
	s := inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs: widgets.log", Handler: logWorld(t).Handler()})
	j := startJourneyWith(t, view.Options{Session: s, Clock: fixedClock})
	j.waitFor("demo/last")
	j.key("g")
	j.waitFor("over 9 keys in backoff,failed,unknown")
	j.waitLine("6 keys", "widgets", "dial tcp <address>: connect: connection refused")
}
