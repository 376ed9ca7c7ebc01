package instrument

import (
	"context"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// A list endpoint reads each entry as a query.Item: enough to filter,
// rank and group it. It is copied under the entry's shard lock and read
// outside it, so a costly filter or a sort never holds up the controller's
// When. Strings are shared, not copied: keys and interned errors are
// immutable.

// scan copies the store one shard at a time into buf and hands each copy to
// fn, outside the lock. A shard's lock is held only for the copy. It stops
// when ctx is done or fn fails, and returns buf for the caller to reuse.
func (s *store[T]) scan(ctx context.Context, now int64, buf []query.Item, fn func([]query.Item) error) ([]query.Item, error) {
	s.maybeSweep(now)
	if want := s.len()/shardCount + s.len()/shardCount/4 + 16; cap(buf) < want {
		buf = make([]query.Item, 0, want) // one shard's worth and a margin: no regrowth
	}
	for i := range s.shards {
		if err := ctx.Err(); err != nil {
			return buf, err
		}
		sh := &s.shards[i]
		buf = buf[:0]
		sh.mu.Lock()
		for _, e := range sh.m {
			buf = append(buf, query.Item{
				Key:          e.key,
				LastError:    e.lastErr.String(),
				Class:        classNames[e.errClass],
				State:        e.state(now),
				Failures:     int(e.failures),
				NextRetry:    e.nextRetry,
				FirstFailure: e.firstFailureAt,
				QueuedAt:     e.queuedAt,
				LastErrorAt:  e.lastErrAt,
			})
		}
		sh.mu.Unlock()
		if err := fn(buf); err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// scan is the store's scan, for the endpoint.
func (p *TypedProbe[T]) scan(ctx context.Context, now int64, buf []query.Item, fn func([]query.Item) error) ([]query.Item, error) {
	return p.store.scan(ctx, now, buf, fn)
}

// brief returns one key without its history, as a page of v1/keys shows it.
func (p *TypedProbe[T]) brief(key string, now int64) (api.Key, bool) {
	return p.keyView(key, now, false)
}

// keyView returns one key's view, built under its shard lock.
func (p *TypedProbe[T]) keyView(key string, now int64, withHistory bool) (api.Key, bool) {
	var k api.Key
	ok := p.store.withKey(key, func(e *entry[T]) { k = e.view(p.Name(), now, withHistory) })
	return k, ok
}
