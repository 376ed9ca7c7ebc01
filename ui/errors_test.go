package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// A regex that does not compile says so under the prompt while it is
// typed; the table keeps the last filter that was valid, and says which.
func TestJourneyBadRegexWhileTyping(t *testing.T) {
	f := newFixture(t, 5, false)
	j := startJourney(t, f)
	j.waitFor("demo/widget-000004", "5 matched")

	j.key("/")
	j.tm.Type("~widget-00000(")
	j.waitFor(`✗ "widget-00000(" is not a regular expression: missing closing ): ` + "`widget-00000(`")
	j.waitFor(`still showing "~widget-00000"; keep`, "demo/widget-000004")
	j.tm.Type("3)")
	j.waitLine("›", "demo/widget-000003") // the page of the new filter arrived
	if s := j.screenNow(); strings.Contains(s, "not a regular expression") || strings.Contains(s, "demo/widget-000004") {
		t.Errorf("once the regex compiles, want it applied and the error gone:\n%s", s)
	}
	j.key("enter")
	j.waitFor("filter ~widget-00000(3)", "1–1 of 1 matched")
}

// An endpoint never reached: a panel says what was tried and when it is
// tried again, the error in the CLI's words (Options.Explain: what to
// try), then the UI exits with the error get prints.
func TestJourneyUnreachableEndpointGivesUp(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connections are refused
	s, err := inspector.Direct("http://"+addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	explain := func(err error) error { return fmt.Errorf("%v; is an endpoint listening there?", err) }
	j := startJourneyWith(t, view.Options{Session: s, Refresh: 200 * time.Millisecond, GiveUp: 2 * time.Second, Explain: explain})
	j.waitFor("✗ cannot read "+addr, "tried GET v1/controllers and v1/keys at", "connection refused", "listening there?", "tries again in", "gives up in")

	j.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := j.tm.FinalModel(t).(recorder).Model
	// What get prints: the error of the same v1/keys call.
	_, want := s.Keys(context.Background(), final.tbl().Query())
	if final.exitErr == nil || want == nil || final.exitErr.Error() != want.Error() {
		t.Errorf("exit error %v, want %v", final.exitErr, want)
	}
	if !errors.Is(final.exitErr, final.exitErr) || !strings.Contains(final.exitErr.Error(), "connection refused") {
		t.Errorf("exit error %v does not say the connection was refused", final.exitErr)
	}
}

// A connection problem's panel wraps the whole error at 80 columns: nothing
// is cut.
func TestProblemPanelWraps(t *testing.T) {
	m := loaded(t, 80, 24)
	long := errors.New("dial tcp 10.96.0.1:443: connect: connection refused; the endpoint demo/ctrl-0 is not answering on its debug port 8082 after the pod restarted")
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Err: long, PageErr: long, FetchedAt: t0})
	got := strings.Join(strings.Fields(screen(m)), " ")
	for _, w := range []string{"✗ lost demo/ctrl-0", "connect: connection refused;", "is not answering on its debug port 8082 after the pod restarted", "the last answer stays below"} {
		if !strings.Contains(got, w) {
			t.Errorf("the panel does not say %q:\n%s", w, screen(m))
		}
	}
}
