package inspector

import (
	"context"
	"slices"
	"sync"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// sessionWatch is a session's watch of its page (Session.Watch): the
// query watched and its mirror, one at a time.
type sessionWatch struct {
	ctx context.Context

	mu       sync.Mutex
	offered  bool // the endpoint's controllers say Capabilities.Watch
	refused  map[string]bool
	query    string
	w        *KeyWatch
	stopLast context.CancelFunc
}

// Watch makes Keys read through a watch of v1/keys where the endpoint offers
// one, until ctx ends: `top` asks for the same page every second, and a
// watch costs the controller one computation a tick for all who watch it,
// sending only what changed. It holds for a session of one endpoint (the
// merge of several replicas' pages is listed as before), and only once an
// Overview has seen the capability; a stream that is down is listed over.
func (s *Session) Watch(ctx context.Context) {
	s.watch = &sessionWatch{ctx: ctx, refused: map[string]bool{}}
}

// seeCapabilities notes whether the endpoint's controllers offer watch.
func (sw *sessionWatch) seeCapabilities(cs []api.Controller) {
	if sw == nil {
		return
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.offered = len(cs) > 0 && !slices.ContainsFunc(cs, func(c api.Controller) bool { return !c.Capabilities.Watch })
}

// keys is the page of q from the watch, and whether it answered: false
// when the session does not watch, the endpoint does not offer it, or the
// stream is down (the caller lists instead).
func (s *Session) watchedKeys(ctx context.Context, q KeyQuery) (*KeyList, bool) {
	sw := s.watch
	if sw == nil || len(s.endpoints) != 1 {
		return nil, false
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	id := q.Values().Encode()
	if !sw.offered || sw.refused[id] {
		return nil, false
	}
	if sw.w == nil || sw.query != id {
		if sw.stopLast != nil {
			sw.stopLast() // one query watched at a time: the one shown
		}
		life, cancel := context.WithCancel(sw.ctx)
		w, err := s.endpoints[0].Client.WatchKeys(life, ctx, q)
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
		out.Items = append(out.Items, PodKey{Key: k})
	}
	return out, true
}
