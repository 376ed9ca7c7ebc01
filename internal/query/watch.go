package query

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Watch defaults (see Options.WatchTick and Options.MaxWatches).
const (
	// DefaultWatchTick is how often a watched page is computed again: top's
	// refresh.
	DefaultWatchTick = time.Second
	// DefaultMaxWatches bounds the watches open at once, whatever their
	// queries: each query watched costs one computation a tick, shared.
	DefaultMaxWatches = 32
	// watchHistory is how many changes a watched query keeps for a client
	// that resumes: at a tick a second, two minutes of changes.
	watchHistory = 128
	// watchBacklog is how many events a watcher may have unread before it
	// is dropped: the server never buffers without bound for a slow reader.
	watchBacklog = 16
	// watchLinger is how long a hub goes on after its last watcher left,
	// so that a client whose connection broke (a port-forward restarted)
	// resumes from its position instead of listing again.
	watchLinger = 30 * time.Second
	// watchWriteTimeout bounds each event's write: a reader that stopped
	// reading (a SIGSTOPped client, a dead tunnel) is let go.
	watchWriteTimeout = 10 * time.Second
)

// A watch is a v1/keys request with watch=true. Watches of the same query
// share one hub: one computation per tick however many watch it, diffed
// against the page before, the change encoded once and handed to every
// watcher. The hub lives while someone watches; its position is its epoch
// and a counter, so that a position from another hub (the server
// restarted, everyone left) is never taken for this one's.

// hub is one watched query.
type hub struct {
	h       *Handler
	key     string // the query, canonical: the admission key of its list
	names   []string
	q       *Keys
	epoch   string
	stopped chan struct{}

	mu      sync.Mutex
	seq     uint64
	page    *api.KeyList
	rows    map[api.KeyRef][]byte // each row of page, encoded: what a change is told by
	order   []api.KeyRef
	history []hubEvent // the last watchHistory changes, oldest first
	subs    map[*watcher]struct{}
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

// watching reports whether r asks for a watch.
func watching(r *http.Request) bool {
	v := r.URL.Query().Get("watch")
	return v != "" && v != "false" && v != "0"
}

// watch serves v1/keys?watch=true: the page, then its changes, one JSON line
// an event, until the client leaves, falls behind or the server stops.
func (h *Handler) watch(w http.ResponseWriter, r *http.Request) error {
	v, err := ParseRaw(r.URL.RawQuery)
	if err != nil {
		return err
	}
	if s := v.Get("watch"); s != "true" && s != "1" {
		return Invalid("watch", "%q: use watch=true (or leave it out to list once)", s)
	}
	rv := v.Get("resourceVersion")
	v.Del("watch")
	v.Del("resourceVersion")
	if v.Get("continue") != "" {
		return Invalid("continue", "a watch follows the first page of its query: leave continue out")
	}
	key, q, names, err := h.keysQuery(v)
	if err != nil {
		return err
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		return Errorf(http.StatusNotImplemented, "this server cannot stream: list without watch=true")
	}
	hb, wt, first, err := h.subscribe(r.Context(), key, names, q, rv)
	if err != nil {
		return err
	}
	defer hb.leave(wt)

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(line []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(watchWriteTimeout))
		if _, err := w.Write(line); err != nil {
			return false
		}
		flusher.Flush()
		return true
	}
	for _, line := range first {
		if !write(line) {
			return nil
		}
	}
	for {
		select {
		case line := <-wt.events:
			if !write(line) {
				return nil
			}
		case <-wt.dropped:
			write(errorLine(hb.position(), http.StatusGone, "Expired",
				fmt.Sprintf("this watch fell %d events behind and was dropped: watch again (resourceVersion resumes where it was, while it is recent)", watchBacklog)))
			return nil
		case <-hb.stopped:
			return nil
		case <-r.Context().Done():
			return nil
		}
	}
}

// CloseWatches ends every watch (each stream ends; its client resumes
// elsewhere or lists): a server shutting down calls it, since a stream
// would otherwise hold its graceful shutdown until the deadline.
func (h *Handler) CloseWatches() {
	h.watchMu.Lock()
	defer h.watchMu.Unlock()
	for _, hb := range h.hubs {
		hb.stop()
	}
}

// subscribe joins (or starts) the hub of query key, and returns what the
// watcher is sent first: the page, or the changes after position rv.
func (h *Handler) subscribe(ctx context.Context, key string, names []string, q *Keys, rv string) (*hub, *watcher, [][]byte, error) {
	h.watchMu.Lock()
	defer h.watchMu.Unlock()
	if h.watchers >= h.opts.MaxWatches {
		return nil, nil, nil, Busy(time.Second, "%d watches are open, the most this endpoint serves at once: close one, or list without watch=true", h.opts.MaxWatches)
	}
	hb := h.hubs[key]
	created := hb == nil
	if created {
		if rv != "" {
			// No hub watches this query now: nothing can say what rv missed.
			return nil, nil, nil, Errorf(http.StatusGone, "resourceVersion %q is too old (no one watches this query now): watch again without it", rv)
		}
		hb = &hub{h: h, key: key, names: names, q: q, stopped: make(chan struct{}), subs: map[*watcher]struct{}{},
			epoch: strconv.FormatInt(h.opts.Clock.Now().UnixNano(), 36)}
		cctx, cancel := context.WithTimeout(ctx, maxComputeTime)
		err := hb.compute(cctx)
		cancel()
		if err != nil {
			return nil, nil, nil, err
		}
		h.hubs[key] = hb
		go hb.run()
	}
	wt := &watcher{events: make(chan []byte, watchBacklog), dropped: make(chan struct{})}
	first, err := hb.join(rv, wt)
	if err != nil {
		if created {
			hb.stop()
		}
		return nil, nil, nil, err
	}
	h.watchers++
	return hb, wt, first, nil
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
	if epoch != hb.epoch || seq < oldest || seq > hb.seq {
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

// stop ends hb's ticks; called with h.watchMu held.
func (hb *hub) stop() {
	if hb.h.hubs[hb.key] == hb {
		delete(hb.h.hubs, hb.key)
	}
	close(hb.stopped)
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
	val, _, err := h.adm.do(ctx, hb.key, h.src.Now(), true, encoded(func(ctx context.Context) (any, error) {
		return h.keyPage(ctx, hb.names, hb.q)
	}))
	if err != nil {
		return err
	}
	page := val.(*listAnswer).val.(*api.KeyList)
	hb.broadcast(hb.diff(page))
	return nil
}

// diff takes page in and returns the event that says what changed since
// the page before (a bookmark when nothing did); none for the first page.
func (hb *hub) diff(page *api.KeyList) []byte {
	rows := make(map[api.KeyRef][]byte, len(page.Items))
	order := make([]api.KeyRef, len(page.Items))
	ev := api.WatchEvent{Type: api.WatchChange, ServerTime: page.ServerTime, Total: page.Total, Matched: page.Matched}
	for i := range page.Items {
		k := &page.Items[i]
		ref := api.KeyRef{Controller: k.Controller, Key: k.Key}
		b, _ := json.Marshal(k)
		rows[ref], order[i] = b, ref
		if old, ok := hb.rows[ref]; !ok || !bytes.Equal(old, b) {
			ev.Changed = append(ev.Changed, *k)
		}
	}
	hb.mu.Lock()
	defer hb.mu.Unlock()
	for ref := range hb.rows {
		if _, ok := rows[ref]; !ok {
			ev.Deleted = append(ev.Deleted, ref)
		}
	}
	slices.SortFunc(ev.Deleted, func(a, b api.KeyRef) int {
		return strings.Compare(a.Controller+"\x00"+a.Key, b.Controller+"\x00"+b.Key)
	})
	if !slices.Equal(order, hb.order) {
		ev.Order = order
	}
	first := hb.page == nil
	changed := len(ev.Changed) > 0 || len(ev.Deleted) > 0 || ev.Order != nil ||
		(!first && (page.Total != hb.page.Total || page.Matched != hb.page.Matched))
	hb.page, hb.rows, hb.order = page, rows, order
	if first {
		return nil
	}
	if !changed {
		ev.Type = api.WatchBookmark
		ev.Total, ev.Matched = 0, 0
	} else {
		hb.seq++
	}
	ev.ResourceVersion = hb.positionLocked()
	line := marshalLine(ev)
	if changed {
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
	return marshalLine(api.WatchEvent{Type: api.WatchPage, ResourceVersion: hb.positionLocked(), ServerTime: hb.page.ServerTime, Page: hb.page})
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

// marshalLine is ev as one JSON line.
func marshalLine(ev api.WatchEvent) []byte {
	b, _ := json.Marshal(ev)
	return append(b, '\n')
}
