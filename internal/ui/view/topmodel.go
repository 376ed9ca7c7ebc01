package view

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// TopModel is the table's read model, as k9s splits a model from its view:
// what the table asks the endpoint for (its controller, states, sort and
// offset; the view adds its filter and page size: Top.Query), the last
// answer, the pacing of its reads, and the rows that changed between two
// answers of the same query. It draws nothing and knows no key; Top, the
// view, holds it and renders it.
type TopModel struct {
	C *Common

	// The query.
	Controller string
	states     map[api.State]bool
	Sort       int
	Offset     int

	// The last answer.
	Overview  *inspector.Overview
	Page      *inspector.KeyList
	Groups    []api.ErrorGroup // the last error groups read, for the diagnosis
	fetchedAt time.Time
	Err       error
	// reached is true once the endpoint answered at all; failedSince is when
	// the current run of failed refreshes began.
	reached     bool
	failedSince time.Time

	// Rows changed since the previous refresh of the same query.
	prevQuery string
	prev      map[string]string
	changed   map[string]bool

	// The pacing of reads.
	Seq      int
	Inflight bool
	lastSent time.Time
	// quietSince is when the first read the endpoint has not answered
	// since its last answer was sent: where "not answering since" starts,
	// through the reads that time out after it.
	quietSince time.Time
	// GroupsAt and groupsFor say when, and for which controller filter, the
	// error groups behind the diagnosis were last asked for (see read).
	GroupsAt  time.Time
	groupsFor string
	// groupsFailing says whether some key failed in the overview read with
	// the last groups.
	groupsFailing bool
	// groupsSeq is the read whose groups are under way (0: none): until
	// they are in, groupsFailing is older than the overview, and a change
	// between the two is theirs to tell, not a reason to ask again.
	groupsSeq int
	// Asked is the page size of the last read sent (see refit), refitSeq
	// the seq of refit's last read.
	Asked, refitSeq int
}

// StateList is the states toggled on, in the toggles' order: of every
// state a source may have, so that --state unknown selects before the first
// v1/controllers says the source is a log (an endpoint refuses it).
func (t *TopModel) StateList() []api.State {
	var out []api.State
	for _, s := range query.LogStates {
		if t.states[s] {
			out = append(out, s)
		}
	}
	return out
}

func queryID(q inspector.KeyQuery) string {
	return fmt.Sprintf("%s|%s|%s|%v|%s|%d|%d", q.Controller, q.Q, q.Error, q.States, q.Sort, q.Limit, q.Offset)
}

// read sends a read of q, the page the view shows: the error groups behind
// the diagnosis with it when they are due.
func (t *TopModel) read(q inspector.KeyQuery) tea.Cmd {
	t.Seq++
	t.Inflight = true
	t.lastSent = t.C.Now()
	if t.quietSince.IsZero() {
		t.quietSince = t.lastSent
	}
	t.Asked = q.Limit
	// The diagnosis line changes slowly and its error groups cost the
	// endpoint a pass over every key: ask for them every diagnosisEvery, not
	// on every refresh, so that each viewer costs the controller one cheap
	// page a second.
	// Keys starting or stopping to fail change the diagnosis at once: then
	// the groups are read on this refresh.
	groups := t.GroupsAt.IsZero() || t.groupsFor != t.Controller ||
		(t.groupsSeq == 0 && failing(t.Overview) != t.groupsFailing) ||
		t.lastSent.Sub(t.GroupsAt) >= DiagnosisEvery
	if groups {
		t.GroupsAt, t.groupsFor, t.groupsSeq = t.lastSent, t.Controller, t.Seq
	}
	return t.C.Stamp(refreshCmd(t.C.Conn.Ctx, t.C.Conn.Session, t.C.Opts.Clock, t.Seq, q, groups))
}

// failing reports whether some key of ov is in backoff or failed.
func failing(ov *inspector.Overview) bool {
	if ov == nil {
		return false
	}
	for i := range ov.Controllers {
		if explain.InTrouble(&ov.Controllers[i]) > 0 {
			return true
		}
	}
	return false
}

// matched is how many keys the query matches, as last reported.
func (t *TopModel) matched() int {
	if t.Page == nil {
		return 0
	}
	return t.Page.Matched
}

// accept takes in what any answer of a read brings (the diagnosis' error
// groups), and reports whether msg answers the latest read, now no longer
// under way.
func (t *TopModel) accept(msg RefreshedMsg) bool {
	if msg.GroupsAsked && msg.Seq == t.groupsSeq {
		t.groupsSeq = 0
	}
	if msg.GroupsAsked && msg.GroupsFor == t.Controller {
		// Still right for the diagnosis when a newer page query is under way.
		// Noted here as well as when asked: DiagnosisEvery counts from
		// the groups' answer.
		t.GroupsAt, t.groupsFor = msg.FetchedAt, msg.GroupsFor
		if msg.Groups != nil {
			t.Groups = msg.Groups.Groups
			t.groupsFailing = failing(msg.Overview)
		}
	}
	if msg.Seq != t.Seq {
		return false // a newer query is under way
	}
	t.Inflight = false
	return true
}

// take takes the latest read's answer in, read for q: the error, the
// overview (the last counts kept through a failed read), and the page,
// marking the rows whose signature changed since the previous answer of
// the same query at any page size. old is the page before; paged is false
// when the answer holds no page.
func (t *TopModel) take(msg RefreshedMsg, q inspector.KeyQuery) (old *inspector.KeyList, paged bool) {
	t.Err = msg.Err
	if msg.Err == nil {
		t.reached, t.failedSince, t.quietSince = true, time.Time{}, time.Time{}
	} else if t.failedSince.IsZero() {
		t.failedSince = msg.FetchedAt
	}
	switch {
	case msg.Overview != nil && msg.Err == nil:
		t.Overview = msg.Overview
		t.C.SetCapabilities(msg.Overview)
	case msg.Overview != nil && t.Overview != nil:
		// Keep the last counts on screen; show how the replicas stand now.
		ov := *t.Overview
		ov.Replicas = msg.Overview.Replicas
		t.Overview = &ov
	case msg.Overview != nil:
		t.Overview = msg.Overview
	}
	if msg.Page == nil {
		return nil, false
	}
	old = t.Page
	t.Page, t.fetchedAt = msg.Page, msg.FetchedAt
	// The same query at another page size shows the same rows: a page
	// read again to fit (refit) compares with the one before, and keeps
	// its marks, which say what the last refresh changed.
	q.Limit = 0
	id := queryID(q)
	sigs := make(map[string]string, len(msg.Page.Items))
	marked := t.changed
	t.changed = map[string]bool{}
	for _, k := range msg.Page.Items {
		rid := rowID(&k)
		sigs[rid] = signature(&k.Key)
		// A row a refit brings that the page before did not hold is a row
		// the screen gained, not one that changed.
		prevSig, seen := t.prev[rid]
		refit := msg.Seq == t.refitSeq
		if t.prev != nil && t.prevQuery == id && sigs[rid] != prevSig && (seen || !refit) || refit && marked[rid] {
			t.changed[rid] = true
		}
	}
	t.prev, t.prevQuery = sigs, id
	return old, true
}

// signature is what makes a row "changed" when it differs between refreshes.
func signature(k *api.Key) string {
	var lastErr time.Time
	if k.LastError != nil {
		lastErr = k.LastError.At
	}
	return fmt.Sprintf("%s|%d|%d|%d|%d", k.State, k.Failures, k.Reconciles, k.NextRetryAt.UnixNano(), lastErr.UnixNano())
}

// GaveUp is why the UI ends after the refresh msg, taken in: an endpoint
// that never answered, after Options.GiveUp, with the error `get` would
// print; one that refuses the query as given (an unknown --controller), at
// once. Nil while the UI keeps trying, or once the endpoint answered.
func (t *TopModel) GaveUp(msg RefreshedMsg) error {
	if msg.Seq != t.Seq || t.reached || msg.Err == nil {
		return nil
	}
	_, refused := errors.AsType[*inspector.APIError](msg.PageErr)
	if refused || t.C.Now().Sub(t.failedSince) >= t.C.Opts.GiveUp {
		return cmp.Or(msg.PageErr, msg.Err)
	}
	return nil
}

// silentAfter is how many refresh periods a read may stay unanswered
// before the endpoint is said not to answer: two refreshes missed.
const silentAfter = 2

// silent reports whether the endpoint has not answered the read sent at
// quietSince (the first unanswered read) for silentAfter refreshes: a stopped process (SIGSTOP) takes
// the connection and says nothing, and the header must not go on saying
// "connected" (the read fails only at --request-timeout). Whether a read
// is in flight does not matter: between a read that timed out and the next
// one nothing has answered either, and "connected" means a fresh answer
// came (it said so, stopped, for 10 s after each timeout).
func (t *TopModel) silent() bool {
	return !t.quietSince.IsZero() && t.C.Now().Sub(t.quietSince) >= silentAfter*t.C.Opts.Refresh
}

// due reports whether the next read is due (Common.Due).
func (t *TopModel) due() bool { return t.C.Due(t.Inflight, t.lastSent) }

// shown is the controllers the view covers: the selected one, or all.
func (t *TopModel) shown() []api.Controller {
	if t.Overview == nil {
		return nil
	}
	if t.Controller == "" {
		return t.Overview.Controllers
	}
	if c := t.Overview.Controller(t.Controller); c != nil {
		return []api.Controller{*c}
	}
	return nil
}

// fleet reports whether the view spans several workloads (different
// controllers, not replicas of one), or a cluster-wide session (top -A):
// the header then counts the pods rather than naming each, and gives a row
// to each pod out of reach (TopHeader.Fleet), so that one pod that cannot
// be read is said where it is, and the rest of the view stands.
func (t *TopModel) fleet() bool {
	if s := t.C.Conn.Session; s != nil && s.ClusterWide() {
		return true
	}
	return t.Overview != nil && workloads(t.Overview.Replicas) > 1
}

// workloads counts the distinct workloads of replicas: a fleet's
// attached line says how many.
func workloads(reps []inspector.Replica) int {
	seen := map[string]bool{}
	for _, r := range reps {
		seen[r.Workload] = true
	}
	return len(seen)
}
