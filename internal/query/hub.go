package query

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A hub is one watched query, whatever the endpoint: one computation per
// tick however many watch it, diffed against the page before, the change
// encoded once and handed to every watcher. What differs between v1/keys,
// v1/errors and v1/controllers is only their page and what names a row
// (watchSpec). The hub lives while someone watches; its position is its
// epoch and a counter, so that a position from another hub (the server
// restarted, everyone left) is never taken for this one's.

// watchSpec is what a watched endpoint gives its hub.
type watchSpec struct {
	// key is the query, canonical: the admission key of its list, under
	// which a poller of the same query shares the computation.
	key string
	// reuse says whether a poller's answer of a moment ago may serve (as
	// the list of the endpoint says).
	reuse bool
	// compute is the page the same query would list.
	compute func(ctx context.Context) (any, error)
	// split is a page's rows, in order, and its counts.
	split func(list any) pageRows
	// page puts a whole page in a PAGE event.
	page func(ev *api.WatchEvent, list any)
	// changed puts the rows that appeared or changed in a CHANGE event.
	changed func(ev *api.WatchEvent, rows []any)
	// head, when set, puts the page's own fields besides its rows
	// (pageRows.head) in a CHANGE event when they changed.
	head func(ev *api.WatchEvent, head any)
}

// pageRows is a page as the hub diffs it.
type pageRows struct {
	serverTime     time.Time
	total, matched int
	refs           []api.KeyRef // each row's name, in the page's order
	rows           []any        // each row (a pointer into the page), as refs
	// head is the page's own fields besides its rows and counts, which a
	// change of tells too (v1/controllers' source); nil for none.
	head any
}

// hub is one watched query.
type hub struct {
	h       *Handler
	spec    watchSpec
	epoch   string
	stopped chan struct{}
	// ready is closed once the first page is in, or failed (err): the
	// watchers that came meanwhile wait on it, not on the handler's lock.
	ready chan struct{}
	err   error // set before ready is closed

	mu             sync.Mutex
	seq            uint64
	list           any                   // the page now; nil before the first
	rows           map[api.KeyRef][]byte // each row of list, encoded: what a change is told by
	head           []byte                // list's pageRows.head, encoded, likewise
	order          []api.KeyRef
	total, matched int
	serverTime     time.Time
	history        []hubEvent // the last watchHistory changes, oldest first
	subs           map[*watcher]struct{}
	// alone is when the last watcher left; zero while someone watches.
	alone time.Time
}

// hubEvent is one change, encoded once, at its position.
type hubEvent struct {
	seq  uint64
	line []byte
}

// watcher is one watch request's end of a hub.
type watcher struct {
	events  chan []byte
	dropped chan struct{} // closed when it fell watchBacklog events behind
}

func newHub(h *Handler, spec watchSpec) *hub {
	return &hub{h: h, spec: spec, stopped: make(chan struct{}), ready: make(chan struct{}), subs: map[*watcher]struct{}{},
		epoch: strconv.FormatInt(h.opts.Clock.Now().UnixNano(), 36)}
}

// join adds wt to hb and returns what it is sent first: the page for no
// rv; the changes after rv when hb still has them; a 410 when it does not.
// Both under one lock, so that no change falls between them.
func (hb *hub) join(rv string, wt *watcher) ([][]byte, error) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	if rv == "" {
		hb.subs[wt], hb.alone = struct{}{}, time.Time{}
		return [][]byte{hb.pageLine()}, nil
	}
	epoch, n, ok := strings.Cut(rv, "-")
	seq, err := strconv.ParseUint(n, 10, 64)
	if !ok || err != nil {
		return nil, Invalid("resourceVersion", "%q is not a position a watch gave", rv)
	}
	oldest := hb.seq
	if len(hb.history) > 0 {
		oldest = hb.history[0].seq - 1
	}
	if epoch == hb.epoch && seq > hb.seq {
		// Not too old: no watch of this query gave it (yet).
		return nil, Invalid("resourceVersion", "%q is ahead of this watch (now at %s): give a position a watch gave, or leave it out", rv, hb.positionLocked())
	}
	if epoch != hb.epoch || seq < oldest {
		return nil, Errorf(http.StatusGone, "resourceVersion %q is too old: watch again without it", rv)
	}
	var out [][]byte
	for _, e := range hb.history {
		if e.seq > seq {
			out = append(out, e.line)
		}
	}
	hb.subs[wt], hb.alone = struct{}{}, time.Time{}
	return out, nil
}

// leave takes wt off hb; the hub lingers after the last (watchLinger).
func (hb *hub) leave(wt *watcher) {
	h := hb.h
	h.watchMu.Lock()
	defer h.watchMu.Unlock()
	h.watchers--
	hb.mu.Lock()
	delete(hb.subs, wt)
	if len(hb.subs) == 0 {
		hb.alone = h.opts.Clock.Now()
	}
	hb.mu.Unlock()
}

// stop ends hb's ticks, once; called with h.watchMu held.
func (hb *hub) stop() {
	if hb.h.hubs[hb.spec.key] == hb {
		delete(hb.h.hubs, hb.spec.key)
	}
	select {
	case <-hb.stopped:
	default:
		close(hb.stopped)
	}
}

// lonely stops hb when no one has watched it for watchLinger, and reports
// whether it did.
func (hb *hub) lonely() bool {
	h := hb.h
	h.watchMu.Lock()
	defer h.watchMu.Unlock()
	hb.mu.Lock()
	gone := len(hb.subs) == 0 && !hb.alone.IsZero() && h.opts.Clock.Since(hb.alone) >= watchLinger
	hb.mu.Unlock()
	if gone {
		hb.stop()
	}
	return gone
}

// run computes hb's page every tick until it stops.
func (hb *hub) run() {
	t := hb.h.opts.Clock.NewTicker(hb.h.opts.WatchTick)
	defer t.Stop()
	for {
		select {
		case <-hb.stopped:
			return
		case <-t.C():
			if hb.lonely() {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), maxComputeTime)
			err := hb.compute(ctx)
			cancel()
			if e, ok := err.(*Error); ok && e.Status == http.StatusTooManyRequests {
				continue // reads are paced: this tick is skipped, the next one tries
			}
			if err != nil {
				hb.broadcast(errorLine(hb.position(), http.StatusServiceUnavailable, "ServiceUnavailable", err.Error()))
			}
		}
	}
}

// compute reads the page again, through the pacer and admission as a
// reader would (a poller of the same query shares the computation), and
// hands its change to every watcher.
func (hb *hub) compute(ctx context.Context) error {
	h := hb.h
	if h.pace != nil {
		done, err := h.pace.enter(ctx)
		if err != nil {
			return err
		}
		defer done()
	}
	val, _, err := h.adm.do(ctx, hb.spec.key, h.src.Now(), hb.spec.reuse, encoded(hb.spec.compute))
	if err != nil {
		return err
	}
	hb.broadcast(hb.diff(val.(*listAnswer).val))
	return nil
}

// diff takes list in and returns the event that says what changed since
// the page before (a bookmark when nothing did); none for the first page.
func (hb *hub) diff(list any) []byte {
	p := hb.spec.split(list)
	rows := make(map[api.KeyRef][]byte, len(p.refs))
	ev := api.WatchEvent{Type: api.WatchChange, ServerTime: p.serverTime, Total: p.total, Matched: p.matched}
	var changed []any
	for i, ref := range p.refs {
		b, _ := marshal(p.rows[i])
		rows[ref] = b
		if old, ok := hb.rows[ref]; !ok || !bytes.Equal(old, b) {
			changed = append(changed, p.rows[i])
		}
	}
	if len(changed) > 0 {
		hb.spec.changed(&ev, changed)
	}
	var head []byte
	if hb.spec.head != nil {
		head, _ = marshal(p.head)
	}
	hb.mu.Lock()
	defer hb.mu.Unlock()
	for ref := range hb.rows {
		if _, ok := rows[ref]; !ok {
			ev.Deleted = append(ev.Deleted, ref)
		}
	}
	slices.SortFunc(ev.Deleted, func(a, b api.KeyRef) int {
		return strings.Compare(a.Controller+"\x00"+a.Key+"\x00"+a.Fingerprint, b.Controller+"\x00"+b.Key+"\x00"+b.Fingerprint)
	})
	if !slices.Equal(p.refs, hb.order) {
		ev.Order = p.refs
	}
	first := hb.list == nil
	headChanged := !first && !bytes.Equal(head, hb.head)
	if headChanged {
		hb.spec.head(&ev, p.head)
	}
	change := len(changed) > 0 || len(ev.Deleted) > 0 || ev.Order != nil || headChanged ||
		(!first && (p.total != hb.total || p.matched != hb.matched))
	hb.head = head
	hb.list, hb.rows, hb.order, hb.total, hb.matched, hb.serverTime = list, rows, p.refs, p.total, p.matched, p.serverTime
	if first {
		return nil
	}
	if !change {
		ev.Type = api.WatchBookmark
		ev.Total, ev.Matched = 0, 0
	} else {
		hb.seq++
	}
	ev.ResourceVersion = hb.positionLocked()
	line := marshalLine(ev)
	if change {
		hb.history = append(hb.history, hubEvent{seq: hb.seq, line: line})
		if len(hb.history) > watchHistory {
			hb.history = slices.Delete(hb.history, 0, len(hb.history)-watchHistory)
		}
	}
	return line
}

// broadcast hands line to every watcher; one whose backlog is full is
// dropped (its request writes why and ends).
func (hb *hub) broadcast(line []byte) {
	if line == nil {
		return
	}
	hb.mu.Lock()
	defer hb.mu.Unlock()
	for wt := range hb.subs {
		select {
		case wt.events <- line:
		default:
			delete(hb.subs, wt)
			close(wt.dropped)
		}
	}
}

// pageLine is the PAGE event of hb's page now; called with hb.mu held.
func (hb *hub) pageLine() []byte {
	ev := api.WatchEvent{Type: api.WatchPage, ResourceVersion: hb.positionLocked(), ServerTime: hb.serverTime}
	hb.spec.page(&ev, hb.list)
	return marshalLine(ev)
}

// position is hb's position now.
func (hb *hub) position() string {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	return hb.positionLocked()
}

func (hb *hub) positionLocked() string { return hb.epoch + "-" + strconv.FormatUint(hb.seq, 10) }

// errorLine is an ERROR event.
func errorLine(rv string, code int, reason, msg string) []byte {
	return marshalLine(api.WatchEvent{Type: api.WatchError, ResourceVersion: rv,
		Error: &api.ErrorBody{Code: code, Reason: reason, Message: msg}})
}

// marshalLine is ev as one JSON line (marshal ends it in a newline).
func marshalLine(ev api.WatchEvent) []byte {
	b, _ := marshal(ev)
	return b
}
