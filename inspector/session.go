package inspector

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// Endpoint is one instrument endpoint: a pod through a port-forward, or an
// address the caller gave.
type Endpoint struct {
	// Name is the pod ("namespace/name"), or the address of a direct endpoint.
	Name string
	// Workload is the pod's workload (Pod.Workload); "" for an address.
	Workload string
	Client   *Client
	// conn reports the connection state; nil for a direct address.
	conn func() ConnState
}

// State is the endpoint's connection state; a direct address is always connected.
func (e *Endpoint) State() ConnState {
	if e.conn == nil {
		return ConnState{Phase: cluster.PhaseConnected, LocalAddr: e.Name}
	}
	return e.conn()
}

// Session talks to every endpoint of a target and merges what they say. A
// replica with no active controller is a standby (leader election); keys of
// several active replicas (shards) are merged, each naming its pod.
type Session struct {
	endpoints []*Endpoint
	stop      func()
	// clusterWide and found: see ClusterWide and Found.
	clusterWide bool
	found       int
	// watch, when set, lets Keys read through a watch (Watch).
	watch *sessionWatch
}

// NewSession returns a session over endpoints; stop (may be nil) is called by Close.
func NewSession(endpoints []*Endpoint, stop func()) *Session {
	return &Session{endpoints: endpoints, stop: stop}
}

// Direct opens a session on one endpoint address, e.g. "http://127.0.0.1:8082".
func Direct(addr string, rt http.RoundTripper) (*Session, error) {
	c, err := NewClient(addr, rt)
	if err != nil {
		return nil, err
	}
	return NewSession([]*Endpoint{{Name: c.base.Host, Client: c}}, nil), nil
}

// SetRequestTimeout bounds each request to every endpoint of the session
// (Client.SetTimeout). Call it before the session is used.
func (s *Session) SetRequestTimeout(d time.Duration) {
	for _, e := range s.endpoints {
		if e.Client != nil {
			e.Client.SetTimeout(d)
		}
	}
}

// Close stops the session's port-forwards.
func (s *Session) Close() {
	if s.stop != nil {
		s.stop()
	}
}

// Endpoints lists the session's endpoints.
func (s *Session) Endpoints() []*Endpoint { return s.endpoints }

// Replica is what one endpoint reports.
type Replica struct {
	Endpoint string
	// Workload is the endpoint's workload (Endpoint.Workload).
	Workload   string
	Conn       ConnState
	ServerTime time.Time
	// Standby is true when the replica runs no controller (not the leader).
	Standby     bool
	Controllers []api.Controller
	// Source is, for a log read as a replica, what v1/controllers says of
	// it (how much was understood, what it shows); nil for an endpoint.
	Source *api.ListSource
	// Err is why the replica could not be read.
	Err error
}

// podName is the pod a row of e is labelled with: its name when the
// session has several endpoints, or is cluster-wide (-A, whose table
// leads with NAMESPACE and POD even when it found one pod); "" otherwise.
func (s *Session) podName(e *Endpoint) string {
	if len(s.endpoints) > 1 || s.clusterWide {
		return e.Name
	}
	return ""
}

// PodKey is a key with the replica that reported it.
type PodKey struct {
	api.Key
	Pod string `json:"pod,omitempty"`
}

// KeyList is a merged page of keys.
type KeyList struct {
	ServerTime time.Time `json:"serverTime"`
	Total      int       `json:"total"`
	Matched    int       `json:"matched"`
	Items      []PodKey  `json:"items"`
	// Unreachable names the pods of a cluster-wide session that did not
	// answer, and why ("namespace/name: error").
	Unreachable []string `json:"unreachable,omitempty"`
}

// Keys reads a page of keys from every endpoint and merges them in the
// query's sort order. Standby replicas have none, so they add nothing.
func (s *Session) Keys(ctx context.Context, q KeyQuery) (*KeyList, error) {
	if q.Limit <= 0 {
		q.Limit = api.DefaultLimit
	}
	if l, ok := s.watchedKeys(ctx, q); ok {
		return l, nil
	}
	per := q
	if len(s.endpoints) > 1 {
		// Each replica's page must cover the merged page.
		per.Offset, per.Limit = 0, min(q.Offset+q.Limit, api.MaxLimit)
	}
	out := &KeyList{Items: []PodKey{}}
	h, err := fanOut(s, q.Controller, func(e *Endpoint) (*api.KeyList, error) { return e.Client.Keys(ctx, per) },
		func(l *api.KeyList) (time.Time, int, int) { return l.ServerTime, l.Total, l.Matched },
		func(i int, l *api.KeyList) {
			pod := s.podName(s.endpoints[i])
			for _, k := range l.Items {
				out.Items = append(out.Items, PodKey{Key: k, Pod: pod})
			}
		})
	if h.answered == 0 && err != nil {
		return nil, err
	}
	out.ServerTime, out.Total, out.Matched = h.ServerTime, h.Total, h.Matched
	if len(s.endpoints) > 1 {
		slices.SortStableFunc(out.Items, func(a, b PodKey) int { return api.CompareKeys(&a.Key, &b.Key, q.Sort) })
		out.Items = out.Items[min(q.Offset, len(out.Items)):]
		out.Items = out.Items[:min(q.Limit, len(out.Items))]
	}
	if s.clusterWide {
		// One pod out of reach is not a failure of the view: it is named.
		for _, f := range h.failed {
			out.Unreachable = append(out.Unreachable, f.Error())
		}
	}
	return out, err
}

// PodKeyDetail is one key with its history and the replica that has it.
type PodKeyDetail struct {
	api.KeyDetail
	Pod string `json:"pod,omitempty"`
}

// Key reads one key from the replica that has it.
func (s *Session) Key(ctx context.Context, controller, key string) (*PodKeyDetail, error) {
	var errs []error
	for _, e := range s.endpoints {
		d, err := e.Client.Key(ctx, controller, key)
		if err == nil {
			out := &PodKeyDetail{KeyDetail: *d, Pod: s.podName(e)}
			return out, nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 1 {
		return nil, errs[0]
	}
	return nil, fmt.Errorf("key %q of controller %q: on no replica: %w", key, controller, errors.Join(errs...))
}

// Forget sends req to the replicas: with explicit keys, to the one that holds
// each key; with a filter, to every replica. Counts and keys are summed.
func (s *Session) Forget(ctx context.Context, req api.ForgetRequest) (*api.ForgetResponse, error) {
	if len(s.endpoints) == 1 {
		return s.endpoints[0].Client.Forget(ctx, req)
	}
	var total *api.ForgetResponse
	var errs []error
	var msgs []string
	for _, e := range s.endpoints {
		r := req
		if req.Filter == nil {
			r.Keys = s.keysOn(ctx, e, req.Controller, req.Keys)
			if len(r.Keys) == 0 {
				continue
			}
		}
		resp, err := e.Client.Forget(ctx, r)
		if s.lacks(err, req.Controller) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", e.Name, err))
			continue
		}
		msgs = append(msgs, e.Name+": "+resp.Message)
		if total == nil {
			total = resp
			continue
		}
		total.Count += resp.Count
		total.Keys = append(total.Keys, resp.Keys...)
		total.Requeued = total.Requeued || resp.Requeued
		total.PendingRetryKept = total.PendingRetryKept || resp.PendingRetryKept
		total.Truncated = total.Truncated || resp.Truncated
		if resp.ServerTime.After(total.ServerTime) {
			total.ServerTime = resp.ServerTime
		}
	}
	if len(msgs) > 1 {
		// Each replica's message counts only its own keys.
		total.Message = strings.Join(msgs, "\n")
	}
	if total == nil {
		if len(errs) == 0 {
			return nil, fmt.Errorf("controller %q: no replica has the keys %s", req.Controller, strings.Join(req.Keys, ", "))
		}
		return nil, errors.Join(errs...)
	}
	return total, errors.Join(errs...)
}

func (s *Session) keysOn(ctx context.Context, e *Endpoint, controller string, keys []string) []string {
	var out []string
	for _, k := range keys {
		if _, err := e.Client.Key(ctx, controller, k); err == nil {
			out = append(out, k)
		}
	}
	return out
}

// lacks reports whether err is an endpoint of a cluster-wide session saying
// it runs no controller of that name: other workloads run other
// controllers, so it has nothing to add, and that is no failure.
func (s *Session) lacks(err error, controller string) bool {
	ae, ok := errors.AsType[*APIError](err)
	return s.clusterWide && controller != "" && ok && ae.Code == http.StatusNotFound
}

// each calls fn for every endpoint, at most maxCalls at once, and waits.
func (s *Session) each(fn func(i int, e *Endpoint)) {
	if len(s.endpoints) == 1 {
		fn(0, s.endpoints[0])
		return
	}
	slots := make(chan struct{}, maxCalls)
	var wg sync.WaitGroup
	for i, e := range s.endpoints {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			fn(i, e)
		})
	}
	wg.Wait()
}

// dialVia returns a transport that dials whatever address addr yields at the
// time of each request, so a client keeps working across reconnects that
// change the local port.
func dialVia(addr func(ctx context.Context) (string, error), base *http.Transport) *http.Transport {
	t := base.Clone()
	var d net.Dialer
	t.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		a, err := addr(ctx)
		if err != nil {
			return nil, err
		}
		return d.DialContext(ctx, network, a)
	}
	return t
}
