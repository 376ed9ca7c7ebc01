package query

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
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

// watchable are the endpoints that take watch=true, and the spec of each
// one's watch from its parameters (resourceVersion and watch taken out).
var watchable = map[string]func(h *Handler, v url.Values) (watchSpec, error){
	api.WatchKeys:        (*Handler).keysWatch,
	api.WatchErrors:      (*Handler).errorsWatch,
	api.WatchControllers: (*Handler).controllersWatch,
}

// watchEndpoints are watchable's names, as capabilities list them.
var watchEndpoints = []string{api.WatchKeys, api.WatchErrors, api.WatchControllers}

// watching reports whether r asks for a watch.
// A doubled watch does too, whatever its values: watch refuses it, where
// the list would have taken the first (watch=false&watch=true listed).
func watching(r *http.Request) bool {
	vals := r.URL.Query()["watch"]
	if len(vals) > 1 {
		return true
	}
	return len(vals) == 1 && vals[0] != "" && vals[0] != "false" && vals[0] != "0"
}

// watch serves endpoint?watch=true: the page, then its changes, one JSON
// line an event, until the client leaves, falls behind or the server stops.
func (h *Handler) watch(w http.ResponseWriter, r *http.Request, endpoint string) error {
	v, err := ParseRaw(r.URL.RawQuery)
	if err != nil {
		return err
	}
	// Taken out before the others are checked: a doubled one is refused
	// here, as a doubled limit is (the first was taken, silently).
	for _, name := range []string{"watch", "resourceVersion"} {
		if n := len(v[name]); n > 1 {
			return Invalid(name, "given %d times; give it once", n)
		}
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
	spec, err := watchable[endpoint](h, v)
	if err != nil {
		return err
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		return Errorf(http.StatusNotImplemented, "this server cannot stream: list without watch=true")
	}
	hb, wt, first, err := h.subscribe(r.Context(), spec, rv)
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

// subscribe joins (or starts) the hub of spec's query, and returns what
// the watcher is sent first: the page, or the changes after position rv.
//
// The handler's lock only finds or registers the hub and counts the
// watcher against the bound: the first page of a new hub is computed
// outside it, by the watcher that started the hub, while every other
// watcher of the query waits for that one computation (hb.ready) and the
// watchers of other queries, and those leaving, go on.
func (h *Handler) subscribe(ctx context.Context, spec watchSpec, rv string) (*hub, *watcher, [][]byte, error) {
	h.watchMu.Lock()
	if h.watchers >= h.opts.MaxWatches {
		h.watchMu.Unlock()
		return nil, nil, nil, Busy(time.Second, "%d watches are open, the most this endpoint serves at once: close one, or list without watch=true", h.opts.MaxWatches)
	}
	hb := h.hubs[spec.key]
	created := hb == nil
	if created {
		if rv != "" {
			h.watchMu.Unlock()
			// No hub watches this query now: nothing can say what rv missed.
			return nil, nil, nil, Errorf(http.StatusGone, "resourceVersion %q is too old (no one watches this query now): watch again without it", rv)
		}
		if len(h.hubs) >= h.opts.MaxWatches {
			h.evictLonelyHub()
		}
		hb = newHub(h, spec)
		h.hubs[spec.key] = hb
	}
	h.watchers++ // counted now, so the bound holds while the page is computed
	h.watchMu.Unlock()

	if created {
		// Not the request's context: the computation is every waiter's.
		cctx, cancel := context.WithTimeout(context.Background(), maxComputeTime)
		hb.err = hb.compute(cctx)
		cancel()
		if hb.err != nil {
			h.watchMu.Lock()
			hb.stop()
			h.watchMu.Unlock()
		} else {
			go hb.run()
		}
		close(hb.ready)
	} else {
		select {
		case <-hb.ready:
		case <-ctx.Done():
			h.uncount()
			return nil, nil, nil, ctx.Err()
		}
	}
	if hb.err != nil {
		h.uncount()
		return nil, nil, nil, hb.err
	}
	wt := &watcher{events: make(chan []byte, watchBacklog), dropped: make(chan struct{})}
	first, err := hb.join(rv, wt)
	if err != nil {
		h.uncount()
		return nil, nil, nil, err
	}
	return hb, wt, first, nil
}

// evictLonelyHub stops the hub alone the longest, so that the hubs, not
// only the watchers, stay within MaxWatches: a hub lingers watchLinger after
// its last watcher, computing its page every tick, and clients opening
// distinct queries one after another kept hundreds (RSS 148 → 472 MB). Its
// resuming client is told 410 and lists again. Called with h.watchMu held;
// when no hub is alone, each has a watcher and the watchers' bound holds.
func (h *Handler) evictLonelyHub() {
	var oldest *hub
	var since time.Time
	for _, hb := range h.hubs {
		hb.mu.Lock()
		alone := len(hb.subs) == 0 && !hb.alone.IsZero()
		at := hb.alone
		hb.mu.Unlock()
		if alone && (oldest == nil || at.Before(since)) {
			oldest, since = hb, at
		}
	}
	if oldest != nil {
		oldest.stop()
	}
}

// uncount gives back a watcher's place that never joined.
func (h *Handler) uncount() {
	h.watchMu.Lock()
	h.watchers--
	h.watchMu.Unlock()
}
