package instrument

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api/query"
)

// The list endpoints (v1/controllers, v1/keys, v1/errors) read every key, so
// each runs through admission: a bounded number at once, identical requests
// sharing one computation, a result reused for a moment. Each computation
// reads snapshots of one shard at a time and does its filtering, ranking and
// grouping outside every lock, so the controller's When never waits on it.

// listAnswer is a computed list, encoded once however many requests share
// it: encoding a page of 1,000 keys costs more than selecting it.
type listAnswer struct {
	compact  []byte
	val      any
	once     sync.Once
	indented []byte
}

// encoded computes through compute and encodes the value, compact.
func encoded(compute func(context.Context) (any, error)) func(context.Context) (any, error) {
	return func(ctx context.Context) (any, error) {
		v, err := compute(ctx)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		buf.Grow(sizeHint(v)) // one allocation, not a doubling series
		if err := json.NewEncoder(&buf).Encode(v); err != nil {
			return nil, err
		}
		return &listAnswer{compact: buf.Bytes(), val: v}, nil
	}
}

// sizeHint guesses the encoded size of v, a little over for lists: a key
// encodes to 300-500 bytes.
func sizeHint(v any) int {
	switch v := v.(type) {
	case api.KeyList:
		return 512 + 512*len(v.Items)
	case *api.ErrorGroupList:
		return 512 + 512*len(v.Groups)
	}
	return 4096
}

// body is the answer compact, or indented for a person (encoded once).
func (a *listAnswer) body(indent bool) []byte {
	if !indent {
		return a.compact
	}
	a.once.Do(func() {
		var buf bytes.Buffer
		if json.Indent(&buf, a.compact, "", "  ") == nil {
			a.indented = buf.Bytes()
		} else {
			a.indented = a.compact
		}
	})
	return a.indented
}

// zeroAge is how an answer's age field reads as encoded; writeAged replaces
// its first occurrence, which is the field (it follows serverTime, before
// any item).
var zeroAge = [2][]byte{[]byte(`"age":"0s"`), []byte(`"age": "0s"`)}

// writeAged writes body with its age field set to age, in place of the
// encoded zero, without copying the body.
func writeAged(w http.ResponseWriter, body []byte, indent bool, age time.Duration) {
	field := zeroAge[0]
	if indent {
		field = zeroAge[1]
	}
	i := bytes.Index(body, field)
	if age == 0 || i < 0 {
		writeBody(w, http.StatusOK, body)
		return
	}
	setJSONHeaders(w)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body[:i])
	_, _ = fmt.Fprintf(w, `%s"%s"`, field[:len(field)-4], age)
	_, _ = w.Write(body[i+len(field):])
}

// list runs compute through admission under key and writes its answer,
// stating its age if aged (an answer without an age field is never reused).
func (h *handler) list(w http.ResponseWriter, r *http.Request, src sources, key string, aged bool, compute func(context.Context) (any, error)) error {
	val, age, err := h.adm.do(r.Context(), key, h.now(src), aged, encoded(compute))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			return newError(kindTimeout, "computing the answer took over %v: narrow it with q or state", maxComputeTime)
		}
		return err
	}
	indent := wantsIndent(r)
	body := val.(*listAnswer).body(indent)
	if !aged {
		writeBody(w, http.StatusOK, body)
		return nil
	}
	writeAged(w, body, indent, age)
	return nil
}

func (h *handler) controllers(w http.ResponseWriter, r *http.Request) error {
	if _, err := query.ParseParams(r.URL.RawQuery, nil); err != nil {
		return err
	}
	return h.list(w, r, nil, "controllers", false, func(context.Context) (any, error) {
		list := api.ControllerList{ServerTime: h.now(nil), Controllers: []api.Controller{}}
		for _, c := range h.opts.Registry.list() {
			info := c.info(c.now())
			if h.opts.ReadOnly {
				info.Capabilities = api.Capabilities{ReadOnly: true, Sorts: api.Sorts}
			}
			list.Controllers = append(list.Controllers, info)
		}
		return list, nil
	})
}

func (h *handler) keys(w http.ResponseWriter, r *http.Request) error {
	v, err := query.ParseRaw(r.URL.RawQuery) // parseKeyQuery checks the parameters
	if err != nil {
		return err
	}
	q, err := parseKeyQuery(v)
	if err != nil {
		return err
	}
	src, err := h.selectControllers(q.Controller)
	if err != nil {
		return err
	}
	return h.list(w, r, src, "keys?"+v.Encode(), true, func(ctx context.Context) (any, error) {
		return h.keyPage(ctx, src, q)
	})
}

// keyPage computes one page of v1/keys.
func (h *handler) keyPage(ctx context.Context, src sources, q *query.Keys) (api.KeyList, error) {
	now := h.now(src)
	sel, err := selectPage(ctx, src, q, now.UnixNano())
	if err != nil {
		return api.KeyList{}, err
	}
	list := api.KeyList{ServerTime: now, Total: sel.total, Matched: sel.matched, Items: make([]api.Key, 0, len(sel.rows)), Continue: sel.cont}
	for i := range sel.rows {
		r := &sel.rows[i]
		k, ok := src[r.Ctrl].brief(r.Key, now.UnixNano())
		if !ok {
			continue // evicted since the snapshot
		}
		withHandle(&k)
		list.Items = append(list.Items, k)
	}
	return list, nil
}

func (h *handler) errors(w http.ResponseWriter, r *http.Request) error {
	v, err := query.ParseRaw(r.URL.RawQuery)
	if err != nil {
		return err
	}
	controller, m, err := query.ParseErrors(v, api.States)
	if err != nil {
		return err
	}
	src, err := h.selectControllers(controller)
	if err != nil {
		return err
	}
	return h.list(w, r, src, "errors?"+v.Encode(), true, func(ctx context.Context) (any, error) {
		now := h.now(src)
		list, err := errorGroups(ctx, src, m, now.UnixNano())
		if err != nil {
			return nil, err
		}
		list.ServerTime = now
		return list, nil
	})
}
