package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestTopForAddrAnswerNamesTheEndpoint: an answer `top --for configmaps
// --addr ADDR` read off the endpoint names it as why does ("Endpoint:"),
// not as pods in a namespace it has not ("pods: ADDR -n  (instrumented)").
func TestTopForAddrAnswerNamesTheEndpoint(t *testing.T) {
	const addr = "http://127.0.0.1:8082"
	a := &why.Answer{
		Object:     why.Object{Kind: "ConfigMap", Resource: "configmaps", Namespace: "widgets", Name: "down-1", Key: "widgets/down-1"},
		Verdict:    why.Verdict{Status: why.InProgress},
		Controller: &why.Controller{Rule: why.RuleAddr, How: "the endpoint the user named, at " + addr, Target: addr, Instrumented: true, Name: "configmap"},
		Now:        t0,
	}
	l := &why.List{Total: 1, Kind: "ConfigMap", Resource: "configmaps", Answers: []*why.Answer{a}}
	list := func(context.Context) (*why.List, error) { return l, nil }
	m := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "configmaps", List: list}})
	m = send(t, m, tea.WindowSizeMsg{Width: 160, Height: 30})
	m = runFor(t, m, m.refreshFor())
	m = send(t, m, press("enter"))
	s := screen(m)
	if !strings.Contains(s, "endpoint: "+addr+" (instrumented)") || strings.Contains(s, " -n  (") {
		t.Errorf("the answer should name the endpoint, without a namespace:\n%s", s)
	}
}
