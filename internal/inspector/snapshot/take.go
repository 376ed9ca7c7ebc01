package snapshot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// detailWorkers bounds the v1/key requests in flight per replica: a
// snapshot is taken during an incident, from a controller already busy.
const detailWorkers = 4

// TakeOptions says what a snapshot records about itself and how much detail it takes.
type TakeOptions struct {
	// Source and Tool are recorded as File.Source and File.Tool.
	Source, Tool string
	// MaxDetails bounds the keys whose history is taken. Defaults to
	// DefaultMaxDetails if zero; negative takes none.
	MaxDetails int
}

// Take reads every endpoint of s: its controllers, every key (paged through
// v1/keys in key order with the continue token), and the detail of its keys
// in backoff or failed, most failures first, within opts.MaxDetails. A
// replica that cannot be read is recorded with its error; Take fails only
// when none can.
func Take(ctx context.Context, s *inspector.Session, opts TakeOptions) (*File, error) {
	if opts.MaxDetails == 0 {
		opts.MaxDetails = DefaultMaxDetails
	}
	budget := max(opts.MaxDetails, 0)
	f := &File{Kind: Kind, FormatVersion: FormatVersion, WireAPI: api.APIVersion, Source: opts.Source, Tool: opts.Tool, MaxDetails: budget}
	var errs []error
	for _, e := range s.Endpoints() {
		ep, err := takeEndpoint(ctx, e, &budget)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			errs = append(errs, fmt.Errorf("%s: %w", e.Name, err))
			ep = Endpoint{Name: e.Name, Error: err.Error()}
		}
		if ep.ServerTime.After(f.TakenAt) {
			f.TakenAt = ep.ServerTime
		}
		f.Endpoints = append(f.Endpoints, ep)
	}
	if len(errs) == len(f.Endpoints) {
		return nil, errors.Join(errs...)
	}
	return f, nil
}

// takeEndpoint reads one replica, spending budget on details.
func takeEndpoint(ctx context.Context, e *inspector.Endpoint, budget *int) (Endpoint, error) {
	ep := Endpoint{Name: e.Name, Keys: []api.Key{}}
	cl, err := e.Client.Controllers(ctx)
	if err != nil {
		return ep, err
	}
	ep.ServerTime, ep.Controllers, ep.Source = cl.ServerTime, cl.Controllers, cl.Source
	// Key order does not change with state, so no key moves between pages.
	err = e.Client.KeyPages(ctx, inspector.KeyQuery{Sort: api.SortKey, Limit: api.MaxLimit}, func(l *api.KeyList) error {
		ep.Keys = append(ep.Keys, l.Items...)
		return nil
	})
	if err != nil {
		return ep, err
	}
	// An endpoint older than v1/errors has none: keys then group by message.
	if groups, err := e.Client.Errors(ctx, "", api.Filter{}); err == nil {
		ep.ErrorGroups = groups.Groups
	}
	var failing []api.Key
	for _, k := range ep.Keys {
		if (k.State == api.StateBackoff || k.State == api.StateFailed) && k.Handle == "" {
			failing = append(failing, k)
		}
	}
	slices.SortStableFunc(failing, func(a, b api.Key) int { return api.CompareKeys(&a, &b, api.SortFailures) })
	n := min(len(failing), *budget)
	*budget -= n
	ep.DetailsOmitted = len(failing) - n
	ep.Details = details(ctx, e.Client, failing[:n])
	listAsDetails(&ep)
	return ep, nil
}

// listAsDetails makes a key whose detail was read carry the detail's
// state in the list too, less the history. The list is read first and the
// details after, while the controller goes on: a key that failed again in
// between would be in the file twice, with two failure counts and delays
// under one takenAt, and top --file's row would contradict its own detail.
// The detail is the later, fuller reading, so it wins.
func listAsDetails(ep *Endpoint) {
	at := make(map[key]int, len(ep.Keys))
	for i, k := range ep.Keys {
		at[key{k.Controller, k.Key}] = i
	}
	for _, d := range ep.Details {
		if i, ok := at[key{d.Controller, d.Key}]; ok {
			d.History = nil
			ep.Keys[i] = d
		}
	}
}

// details reads v1/key for keys, a few at a time, in their order. A key
// gone since it was listed is left out.
func details(ctx context.Context, c *inspector.Client, keys []api.Key) []api.Key {
	out := make([]*api.Key, len(keys))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(detailWorkers, len(keys)) {
		wg.Go(func() {
			for i := range next {
				if d, err := c.Key(ctx, keys[i].Controller, keys[i].Key); err == nil {
					out[i] = &d.Key
				}
			}
		})
	}
	for i := range keys {
		next <- i
	}
	close(next)
	wg.Wait()
	var got []api.Key
	for _, k := range out {
		if k != nil {
			got = append(got, *k)
		}
	}
	return got
}
