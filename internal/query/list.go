package query

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The list endpoints (v1/controllers, v1/keys, v1/errors) read every key, so
// each runs through admission: a bounded number at once, identical requests
// sharing one computation, a result reused for a moment. Each computation
// reads a View of the source (the instrument's copies one shard at a time)
// and does its filtering, ranking and grouping outside every lock, so the
// controller's When never waits on it.

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
		if err := NewEncoder(&buf).Encode(v); err != nil {
			return nil, err
		}
		return &listAnswer{compact: buf.Bytes(), val: v}, nil
	}
}

// sizeHint guesses the encoded size of v, a little over for lists: a key
// encodes to 300-500 bytes.
func sizeHint(v any) int {
	switch v := v.(type) {
	case *api.KeyList:
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
func (h *Handler) list(w http.ResponseWriter, r *http.Request, key string, aged bool, compute func(context.Context) (any, error)) error {
	val, age, err := h.adm.do(r.Context(), key, h.src.Now(), aged, encoded(compute))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			return Errorf(http.StatusServiceUnavailable, "computing the answer took over %v: narrow it with q or state", maxComputeTime)
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

func (h *Handler) controllers(w http.ResponseWriter, r *http.Request) error {
	v, err := ParseRaw(r.URL.RawQuery)
	if err != nil {
		return err
	}
	v.Del("watch") // watch=false: a list, as without it
	if err := CheckParams(v, nil); err != nil {
		return err
	}
	return h.list(w, r, "controllers", false, h.controllerList)
}

// controllerList is v1/controllers: the source's controllers, with what
// this handler can do in their capabilities.
func (h *Handler) controllerList(ctx context.Context) (any, error) {
	list, err := h.src.Controllers(ctx)
	if err != nil {
		return nil, err
	}
	for i := range list.Controllers {
		c := &list.Controllers[i].Capabilities
		if h.readOnly() {
			*c = api.Capabilities{ReadOnly: true}
		}
		c.Sorts = api.Sorts // what this handler accepts, whatever the source
		c.Watch, c.Watches = true, watchEndpoints
	}
	return list, nil
}

func (h *Handler) keys(w http.ResponseWriter, r *http.Request) error {
	v, err := ParseRaw(r.URL.RawQuery) // ParseKeys checks the parameters
	if err != nil {
		return err
	}
	v.Del("watch") // watch=false: a list, as without it
	key, q, names, err := h.keysQuery(v)
	if err != nil {
		return err
	}
	return h.list(w, r, key, true, func(ctx context.Context) (any, error) {
		return h.keyPage(ctx, names, q)
	})
}

// keysQuery parses v1/keys' parameters v (a watch's own taken out) into the
// query, the controllers it selects, and its admission key: the one name
// under which a list and a watch of the same query share a computation.
func (h *Handler) keysQuery(v url.Values) (key string, q *Keys, names []string, err error) {
	if q, err = ParseKeys(v, h.opts.States); err != nil {
		return "", nil, nil, err
	}
	if names, err = h.selected(q.Controller); err != nil {
		return "", nil, nil, err
	}
	return "keys?" + v.Encode(), q, names, nil
}

// keyPage computes one page of v1/keys with the Pager: one pass over the
// view, keeping at most api.MaxWindow rows; only the page's keys are then
// read in full.
func (h *Handler) keyPage(ctx context.Context, names []string, q *Keys) (*api.KeyList, error) {
	now, view, err := h.src.View(ctx, names)
	if err != nil {
		return nil, err
	}
	p := NewPager(q, names)
	n := 0
	err = view.Scan(ctx, func(ctrl int, batch []Item) error {
		for i := range batch {
			it := &batch[i]
			if n++; n%256 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			in := it.rankInput()
			p.Offer(ctrl, it.Key, it.LastError, it.State, &in, it.Ref)
		}
		return q.Matcher.Err()
	})
	if err != nil {
		return nil, err
	}
	rows, err := p.Page()
	if err != nil {
		return nil, err
	}
	list := &api.KeyList{ServerTime: now, Total: p.Total, Matched: p.Matched, Items: make([]api.Key, 0, len(rows)), Continue: p.Continue(rows)}
	for i := range rows {
		row := &rows[i]
		k, ok := view.Brief(row.Ctrl, &Item{Key: row.Key, Ref: row.Ref})
		if !ok {
			list.Matched--
			continue // gone since the view was read
		}
		// The filter ran on the scan's copy of the key; Brief reads it again,
		// and a key may have moved on since (a backoff key that started
		// running). Each key listed is one reading: the one it is shown as,
		// filtered again, so that state=backoff never lists a running key.
		if !q.Matcher.Match(k.Key, errMessage(k.LastError), k.State) {
			list.Matched--
			continue
		}
		withHandle(&k)
		list.Items = append(list.Items, k)
	}
	if err := q.Matcher.Err(); err != nil {
		return nil, err
	}
	return list, nil
}

func (h *Handler) errors(w http.ResponseWriter, r *http.Request) error {
	v, err := ParseRaw(r.URL.RawQuery)
	if err != nil {
		return err
	}
	v.Del("watch") // watch=false: a list, as without it
	controller, m, err := ParseErrors(v, h.opts.States)
	if err != nil {
		return err
	}
	names, err := h.selected(controller)
	if err != nil {
		return err
	}
	return h.list(w, r, "errors?"+v.Encode(), true, func(ctx context.Context) (any, error) {
		return h.errorGroups(ctx, names, m)
	})
}

// errorGroups groups the last errors of the keys m selects with the
// Grouper, in one pass over the view. A source that interns its messages
// (the instrument does) has keys failing alike share one string,
// fingerprinted once.
func (h *Handler) errorGroups(ctx context.Context, names []string, m *Matcher) (*api.ErrorGroupList, error) {
	now, view, err := h.src.View(ctx, names)
	if err != nil {
		return nil, err
	}
	out := &api.ErrorGroupList{ServerTime: now}
	g := NewGrouper(names)
	err = view.Scan(ctx, func(ctrl int, batch []Item) error {
		out.Total += len(batch)
		for i := range batch {
			it := &batch[i]
			if it.LastError == "" || !m.Match(it.Key, it.LastError, it.State) {
				continue
			}
			out.Matched++
			first := it.FirstFailure
			if first == 0 { // no failure streak: when the error was seen
				first = it.LastErrorAt
			}
			g.Add(ctrl, &ErrorKey{Key: it.Key, Message: it.LastError, Class: it.Class, First: first, Last: it.LastErrorAt})
		}
		if err := m.Err(); err != nil {
			return err
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	out.Groups = g.Groups()
	return out, nil
}

// errMessage is an error record's message, "" without one: what a Matcher
// reads of a key's last error.
func errMessage(e *api.ErrorRecord) string {
	if e == nil {
		return ""
	}
	return e.Message
}
