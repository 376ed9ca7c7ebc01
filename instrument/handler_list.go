package instrument

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The list endpoints (v1/controllers, v1/keys, v1/errors) read every key, so
// each runs through admission: a bounded number at once, identical requests
// sharing one computation, a result reused for a moment. Each computation
// reads snapshots of one shard at a time and does its filtering, ranking and
// grouping outside every lock, so the controller's When never waits on it.

// list runs compute through admission under key and writes its answer, with
// its age set by setAge; a nil setAge means the answer has no age to tell
// and is never reused.
func (h *handler) list(w http.ResponseWriter, r *http.Request, src sources, key string, compute func(context.Context) (any, error), setAge func(any, time.Duration) any) error {
	val, age, err := h.adm.do(r.Context(), key, h.now(src), setAge != nil, compute)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			return newError(kindTimeout, "computing the answer took over %v: narrow it with q or state", maxComputeTime)
		}
		return err
	}
	if setAge != nil {
		val = setAge(val, age)
	}
	serveJSON(w, r, http.StatusOK, val)
	return nil
}

func (h *handler) controllers(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r.URL.RawQuery, nil); err != nil {
		return err
	}
	return h.list(w, r, nil, "controllers", func(context.Context) (any, error) {
		list := api.ControllerList{ServerTime: h.now(nil), Controllers: []api.Controller{}}
		for _, c := range h.opts.Registry.list() {
			info := c.info(c.now())
			if h.opts.ReadOnly {
				info.Capabilities = api.Capabilities{ReadOnly: true}
			}
			list.Controllers = append(list.Controllers, info)
		}
		return list, nil
	}, nil)
}

func (h *handler) keys(w http.ResponseWriter, r *http.Request) error {
	v, err := parseQuery(r.URL.RawQuery, keysParams, "state")
	if err != nil {
		return err
	}
	q, err := parseKeyQuery(v)
	if err != nil {
		return err
	}
	src, err := h.selectControllers(q.controller)
	if err != nil {
		return err
	}
	return h.list(w, r, src, "keys?"+v.Encode(), func(ctx context.Context) (any, error) {
		return h.keyPage(ctx, src, q)
	}, func(v any, age time.Duration) any {
		l := v.(api.KeyList)
		l.Age = metav1.Duration{Duration: age}
		return l
	})
}

// keyPage computes one page of v1/keys.
func (h *handler) keyPage(ctx context.Context, src sources, q *keyQuery) (api.KeyList, error) {
	now := h.now(src)
	sel, err := selectPage(ctx, src, q, now.UnixNano())
	if err != nil {
		return api.KeyList{}, err
	}
	list := api.KeyList{ServerTime: now, Total: sel.total, Matched: sel.matched, Items: make([]api.Key, 0, len(sel.rows))}
	for i := range sel.rows {
		r := &sel.rows[i]
		k, ok := src[r.ctrl].brief(r.key, now.UnixNano())
		if !ok {
			continue // evicted since the snapshot
		}
		withHandle(&k)
		list.Items = append(list.Items, k)
	}
	if n := len(sel.rows); n > 0 && sel.rest > q.offset+n {
		last := &sel.rows[n-1]
		list.Continue = (&cursor{sort: q.sort, rank: last.rank, controller: src.name(last.ctrl), key: last.key, scope: q.scope}).encode()
	}
	return list, nil
}

func (h *handler) errors(w http.ResponseWriter, r *http.Request) error {
	v, err := parseQuery(r.URL.RawQuery, []string{"controller", "state"}, "state")
	if err != nil {
		return err
	}
	states, _ := parseStates(v["state"])
	m, err := newMatcher(api.Filter{States: states})
	if err != nil {
		return err
	}
	src, err := h.selectControllers(v.Get("controller"))
	if err != nil {
		return err
	}
	return h.list(w, r, src, "errors?"+v.Encode(), func(ctx context.Context) (any, error) {
		now := h.now(src)
		list, err := errorGroups(ctx, src, m.states, now.UnixNano())
		if err != nil {
			return nil, err
		}
		list.ServerTime = now
		return *list, nil
	}, func(v any, age time.Duration) any {
		l := v.(api.ErrorGroupList)
		l.Age = metav1.Duration{Duration: age}
		return l
	})
}
