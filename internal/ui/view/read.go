package view

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
)

// The views' reads: each a tea.Cmd that calls package inspector and
// returns a typed message the view takes in (received); none touches a
// model.

const (
	// CallTimeout bounds one command's calls.
	CallTimeout = 10 * time.Second
	// attachTimeout bounds an attach: discovery, then the port-forward's setup.
	attachTimeout = 30 * time.Second
)

// DetailFetchedMsg carries a (re)read of the key the detail view shows.
type DetailFetchedMsg struct {
	Controller, Key string
	Data            *describe.Description
	Err             error
	FetchedAt       time.Time
}

// GroupsFetchedMsg carries the endpoint's error groups for the group view.
type GroupsFetchedMsg struct {
	Seq       int
	List      *api.ErrorGroupList
	Err       error
	FetchedAt time.Time
}

// AttachedMsg carries the session opened on the pod picked, or why not.
type AttachedMsg struct {
	Pod     cluster.Pod
	Session *inspector.Session
	Objects *describe.ObjectReader
	Err     error
}

// DetailCmd reads one key and explains it, as `kubectl backoff describe`
// does: its history, its controller, the fleet around it and, when a
// cluster is at hand, the object behind it.
func DetailCmd(ctx context.Context, s *inspector.Session, objects *describe.ObjectReader, clock func() time.Time, controller, key string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, CallTimeout)
		defer cancel()
		d, err := describe.Describe(ctx, s, controller, key, objects)
		return DetailFetchedMsg{Controller: controller, Key: key, Data: d, Err: err, FetchedAt: clock()}
	}
}

// groupsCmd reads the endpoint's exact error groups (v1/errors) of the keys
// f selects.
func groupsCmd(ctx context.Context, s *inspector.Session, clock func() time.Time, seq int, controller string, f api.Filter) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, CallTimeout)
		defer cancel()
		l, err := s.Errors(ctx, controller, f)
		return GroupsFetchedMsg{Seq: seq, List: l, Err: err, FetchedAt: clock()}
	}
}

// attachCmd attaches to pod with attach. The session is handed to owned
// here, not in Update, so that it is closed when the UI exits even if the UI
// exits while the attach is under way and this message is never read.
func attachCmd(ctx context.Context, attach AttachFunc, owned *Sessions, pod cluster.Pod) tea.Cmd {
	return func() tea.Msg {
		// Bounds the discovery and the port-forward's setup; the session
		// itself lives until closed.
		ctx, cancel := context.WithTimeout(ctx, attachTimeout)
		defer cancel()
		s, objects, err := attach(ctx, pod)
		if err == nil && !owned.Adopt(s) {
			err = errors.New("the UI has exited")
		}
		if err != nil {
			return AttachedMsg{Pod: pod, Err: fmt.Errorf("attach %s: %w", pod, err)}
		}
		return AttachedMsg{Pod: pod, Session: s, Objects: objects}
	}
}

// Sessions are the sessions the UI opened itself, closed when it exits.
type Sessions struct {
	mu     sync.Mutex
	open   []*inspector.Session
	closed bool
}

// Adopt keeps s to close at exit; once the UI has exited it closes s at once
// and reports false.
func (o *Sessions) Adopt(s *inspector.Session) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		s.Close()
		return false
	}
	o.open = append(o.open, s)
	return true
}

// CloseAll closes every session adopted, and any adopted from now on.
func (o *Sessions) CloseAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	for _, s := range o.open {
		s.Close()
	}
	o.open = nil
}
