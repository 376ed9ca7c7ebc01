package query

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Source is what the v1 read handler serves: a log store, a snapshot. Each
// method answers from one consistent view of the source.
type Source interface {
	// Controllers is v1/controllers: every controller, sorted by name, and
	// the time of the view.
	Controllers() *api.ControllerList
	// Keys is the keys of controller ("" for every one) without their
	// history, and the time of the view.
	Keys(controller string) (now time.Time, keys []api.Key)
	// Key is one key with its history. controller may be "" when only one
	// controller has the key; a key no controller has is a NotFound Error.
	Key(controller, key string) (*api.KeyDetail, error)
}

// ReadOptions configures a read handler.
type ReadOptions struct {
	// States are the states a key can be in: api.States, or LogStates for
	// a source that may hold keys reconstructed from a log. Defaults to
	// LogStates.
	States []api.State
	// What names the source in messages ("the log source", "a snapshot").
	What string
	// Forget is the message v1/forget is refused with (403): why nothing
	// can forget a key here, and what to do instead.
	Forget string
}

// NewReadHandler serves src's v1 read API under api.DefaultPrefix: the
// same parameters, limits, paging (continue), errors (every 400 naming its
// field) and serverTime as the endpoint, since both call this engine.
// Forget is refused: a read-only source cannot reach a queue.
func NewReadHandler(src Source, opts ReadOptions) http.Handler {
	if opts.States == nil {
		opts.States = LogStates
	}
	h := &readHandler{src: src, opts: opts}
	mux := http.NewServeMux()
	p := api.DefaultPrefix + api.APIVersion + "/"
	mux.Handle("GET "+p+"controllers", h.serve(h.controllers))
	mux.Handle("GET "+p+"keys", h.serve(h.keys))
	mux.Handle("GET "+p+"key", h.serve(h.key))
	mux.Handle("GET "+p+"errors", h.serve(h.errors))
	mux.HandleFunc("POST "+p+"forget", func(w http.ResponseWriter, _ *http.Request) {
		WriteError(w, Forbidden("%s", opts.Forget))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, NotFound("%s %s: not part of %s's API", r.Method, r.URL.Path, opts.What))
	})
	return mux
}

type readHandler struct {
	src  Source
	opts ReadOptions
}

// serve adapts an endpoint that returns its answer or its error.
func (h *readHandler) serve(fn func(*http.Request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r)
		if err != nil {
			WriteError(w, err)
			return
		}
		ServeJSON(w, http.StatusOK, v)
	})
}

func (h *readHandler) controllers(r *http.Request) (any, error) {
	if _, err := ParseParams(r.URL.RawQuery, nil); err != nil {
		return nil, err
	}
	list := h.src.Controllers()
	for i := range list.Controllers {
		list.Controllers[i].Capabilities.Sorts = api.Sorts // what this handler accepts, whatever the source
	}
	return list, nil
}

// selected checks the controller parameter and returns the controllers'
// names (every one when name is ""), by index as a Pager or Grouper names
// them, and the keys.
func (h *readHandler) selected(name string) (names []string, at map[string]int, now time.Time, keys []api.Key, err error) {
	at = map[string]int{}
	for _, c := range h.src.Controllers().Controllers {
		if name == "" || c.Name == name {
			at[c.Name] = len(names)
			names = append(names, c.Name)
		}
	}
	if name != "" && len(names) == 0 {
		return nil, nil, time.Time{}, nil, h.unknownController(name)
	}
	now, keys = h.src.Keys(name)
	for i := range keys {
		if _, ok := at[keys[i].Controller]; !ok { // a key of a controller the list did not name
			at[keys[i].Controller] = len(names)
			names = append(names, keys[i].Controller)
		}
	}
	return names, at, now, keys, nil
}

func (h *readHandler) unknownController(name string) error {
	var names []string
	for _, c := range h.src.Controllers().Controllers {
		names = append(names, c.Name)
	}
	return NotFound("no controller %q in %s; known: %s", name, h.opts.What, strings.Join(names, ", "))
}

func (h *readHandler) keys(r *http.Request) (any, error) {
	v, err := ParseRaw(r.URL.RawQuery)
	if err != nil {
		return nil, err
	}
	q, err := ParseKeys(v, h.opts.States)
	if err != nil {
		return nil, err
	}
	names, at, now, keys, err := h.selected(q.Controller)
	if err != nil {
		return nil, err
	}
	p := NewPager(q, names)
	for i := range keys {
		k := &keys[i]
		msg := ""
		if k.LastError != nil {
			msg = k.LastError.Message
		}
		in := api.RankInput{Failures: k.Failures, NextRetry: UnixNano(k.NextRetryAt),
			FirstFailure: UnixNano(k.FirstFailureAt), QueuedAt: UnixNano(k.QueuedAt)}
		p.Offer(at[k.Controller], k.Key, msg, k.State, &in, i)
	}
	rows, err := p.Page()
	if err != nil {
		return nil, err
	}
	out := api.KeyList{ServerTime: now, Total: p.Total, Matched: p.Matched, Items: make([]api.Key, 0, len(rows)), Continue: p.Continue(rows)}
	for _, row := range rows {
		out.Items = append(out.Items, keys[row.Ref])
	}
	return out, nil
}

func (h *readHandler) errors(r *http.Request) (any, error) {
	v, err := ParseRaw(r.URL.RawQuery)
	if err != nil {
		return nil, err
	}
	controller, m, err := ParseErrors(v, h.opts.States)
	if err != nil {
		return nil, err
	}
	names, at, now, keys, err := h.selected(controller)
	if err != nil {
		return nil, err
	}
	out := api.ErrorGroupList{ServerTime: now, Total: len(keys)}
	g := NewGrouper(names)
	for i := range keys {
		k := &keys[i]
		if k.LastError == nil || !m.Match(k.Key, k.LastError.Message, k.State) {
			continue
		}
		out.Matched++
		g.Add(at[k.Controller], &ErrorKey{Key: k.Key, Message: k.LastError.Message, Class: k.LastError.Class,
			First: UnixNano(cmp.Or(k.FirstFailureAt, k.LastError.At)), Last: UnixNano(k.LastError.At)})
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	out.Groups = g.Groups()
	return out, nil
}

func (h *readHandler) key(r *http.Request) (any, error) {
	v, err := ParseParams(r.URL.RawQuery, KeyParams)
	if err != nil {
		return nil, err
	}
	key, err := KeyParam(v.Get("key"), v.Get("handle"))
	if err != nil {
		return nil, err
	}
	return h.src.Key(v.Get("controller"), key)
}

// KeyParam is the key v1/key names, by key or by handle (Key.Handle).
func KeyParam(key, handle string) (string, error) {
	switch {
	case key != "" && handle != "":
		return "", Invalid("handle", "give key or handle, not both")
	case handle != "":
		k, err := KeyOfHandle(handle)
		if err != nil {
			return "", Invalid("handle", "%v", err)
		}
		return k, nil
	case key == "":
		return "", Invalid("key", "required")
	}
	return key, nil
}

// KeyOfHandle is the key a Key.Handle names.
func KeyOfHandle(handle string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(handle)
	if err != nil {
		return "", fmt.Errorf("%q is not a key handle (unpadded base64url, as the key's handle field gives it)", handle)
	}
	return string(b), nil
}

// ServeJSON writes v as the answer, with status code.
func ServeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the status line is out; a broken connection has no one to tell
}

// Body is err in the one error shape every server writes: an *Error with
// its status and field, anything else a 500.
func Body(err error) api.ErrorResponse {
	e, ok := errors.AsType[*Error](err)
	if !ok {
		e = &Error{Status: http.StatusInternalServerError, Msg: err.Error()}
	}
	return api.ErrorResponse{Error: api.ErrorBody{Code: e.Status, Reason: Reason(e.Status), Field: e.Field, Message: e.Msg}}
}

// WriteError writes err in the one error shape (Body).
func WriteError(w http.ResponseWriter, err error) {
	b := Body(err)
	ServeJSON(w, b.Error.Code, b)
}
