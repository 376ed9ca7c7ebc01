package inspector

import (
	"context"
	"slices"
	"sync"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// sessionWatch is a session's watches (Session.Watch): of its page, one
// query at a time, and of its controllers.
type sessionWatch struct {
	ctx context.Context
	// events has a value after any of the watches' events (Session.Events).
	events chan struct{}

	mu       sync.Mutex
	caps     []api.Capabilities // the endpoint's controllers', as last seen
	refused  map[string]bool
	query    string
	w        *KeyWatch
	stopLast context.CancelFunc
	// ctrls watches v1/controllers once the capabilities offer it;
	// ctrlsRefused once the endpoint refused it.
	ctrls        *ControllerWatch
	ctrlsRefused bool
}

// Watch makes Keys and Overview read through watches of v1/keys and
// v1/controllers where the endpoint offers them, until ctx ends: `top`
// asks for the same page every second, and a watch costs the controller
// one computation a tick for all who watch it, sending only what changed.
// It holds for a session of one endpoint (the merge of several replicas'
// pages is listed as before), and only once an Overview has seen the
// capability; a stream that is down is listed over.
func (s *Session) Watch(ctx context.Context) {
	s.watch = &sessionWatch{ctx: ctx, refused: map[string]bool{}, events: make(chan struct{}, 1)}
}

// Events has a value after each event of the session's watches (a change,
// a bookmark, a stream breaking): a view that waits on it redraws when
// something changed, rather than on a clock. Nil when the session does
// not watch: a nil channel never answers, so a waiter polls instead.
func (s *Session) Events() <-chan struct{} {
	if s.watch == nil {
		return nil
	}
	return s.watch.events
}

// notify is every watch's notify: one pending signal is enough.
func (sw *sessionWatch) notify() {
	select {
	case sw.events <- struct{}{}:
	default:
	}
}

// seeCapabilities notes what the endpoint's controllers offer.
func (sw *sessionWatch) seeCapabilities(cs []api.Controller) {
	if sw == nil {
		return
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.caps = sw.caps[:0]
	for i := range cs {
		sw.caps = append(sw.caps, cs[i].Capabilities)
	}
}

// offers says whether every controller of the endpoint offers a watch of
// endpoint; sw.mu is held.
func (sw *sessionWatch) offers(endpoint string) bool {
	return len(sw.caps) > 0 && !slices.ContainsFunc(sw.caps, func(c api.Capabilities) bool { return !c.CanWatch(endpoint) })
}

// watchedKeys is the page of q from the watch, and whether it answered:
// false when the session does not watch, the endpoint does not offer it,
// or the stream is down (the caller lists instead).
func (s *Session) watchedKeys(ctx context.Context, q KeyQuery) (*KeyList, bool) {
	sw := s.watch
	if sw == nil || len(s.endpoints) != 1 {
		return nil, false
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	id := q.Values().Encode()
	if !sw.offers(api.WatchKeys) || sw.refused[id] {
		return nil, false
	}
	if sw.w == nil || sw.query != id {
		if sw.stopLast != nil {
			sw.stopLast() // one query watched at a time: the one shown
		}
		life, cancel := context.WithCancel(sw.ctx)
		w, err := openMirror(s.endpoints[0].Client, life, ctx, keysKind, q.Values(), sw.notify)
		if err != nil {
			cancel()
			sw.refused[id], sw.w = true, nil
			return nil, false
		}
		sw.w, sw.query, sw.stopLast = w, id, cancel
	}
	page, _, err := sw.w.Page()
	if err != nil {
		return nil, false
	}
	out := &KeyList{ServerTime: page.ServerTime, Total: page.Total, Matched: page.Matched, Items: make([]PodKey, 0, len(page.Items))}
	for _, k := range page.Items {
		out.Items = append(out.Items, PodKey{Key: k, Pod: s.podName(s.endpoints[0])})
	}
	return out, true
}

// watchedControllers is v1/controllers from the watch, and whether it
// answered (as watchedKeys).
func (s *Session) watchedControllers(ctx context.Context) (*api.ControllerList, bool) {
	sw := s.watch
	if sw == nil || len(s.endpoints) != 1 {
		return nil, false
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if !sw.offers(api.WatchControllers) || sw.ctrlsRefused {
		return nil, false
	}
	if sw.ctrls == nil {
		w, err := openMirror(s.endpoints[0].Client, sw.ctx, ctx, controllersKind, nil, sw.notify)
		if err != nil {
			sw.ctrlsRefused = true
			return nil, false
		}
		sw.ctrls = w
	}
	list, _, err := sw.ctrls.Page()
	if err != nil {
		return nil, false
	}
	return list, true
}
