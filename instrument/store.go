package instrument

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/utils/clock"
)

const (
	shardCount = 64 // a power of two
	// keyBufSize covers namespace/name keys (253+1+63) without a heap buffer.
	keyBufSize = 320
)

// store holds the entries of one controller. It is sharded so that the
// limiter's When on one key only ever waits for the few operations on keys of
// the same shard, never for a listing of the whole store.
type store[T comparable] struct {
	shards    [shardCount]shard[T]
	seed      maphash.Seed
	keyer     keyer[T]
	clock     clock.PassiveClock
	maxKeys   int
	retention time.Duration
	errors    interner

	count     atomic.Int64
	evicting  atomic.Bool
	lastSweep atomic.Int64
}

type shard[T comparable] struct {
	mu sync.Mutex
	m  map[string]*entry[T]
	_  [40]byte // keep neighbouring shard mutexes off one cache line
}

func newStore[T comparable](k keyer[T], c clock.PassiveClock, maxKeys int, retention time.Duration) *store[T] {
	s := &store[T]{seed: maphash.MakeSeed(), keyer: k, clock: c, maxKeys: maxKeys, retention: retention}
	for i := range s.shards {
		s.shards[i].m = make(map[string]*entry[T])
	}
	return s
}

func (s *store[T]) now() int64 { return s.clock.Now().UnixNano() }

func (s *store[T]) shardFor(key []byte) *shard[T] {
	return &s.shards[maphash.Bytes(s.seed, key)&(shardCount-1)]
}

// acquire locks item's shard and returns its entry, creating it if needed. The
// caller must call s.release(sh) when done. Known keys allocate nothing.
func (s *store[T]) acquire(item T, now int64) (*shard[T], *entry[T]) {
	var buf [keyBufSize]byte
	key := s.keyer.append(buf[:0], item)
	sh := s.shardFor(key)
	sh.mu.Lock()
	e := sh.m[string(key)]
	if e == nil {
		e = &entry[T]{key: string(key), item: item}
		sh.m[e.key] = e
		s.count.Add(1)
	}
	e.lastSeen = now
	return sh, e
}

// release unlocks sh and, outside every lock, trims the store if it grew past
// its bound.
func (s *store[T]) release(sh *shard[T]) {
	sh.mu.Unlock()
	if s.count.Load() > int64(s.maxKeys) {
		s.evict(s.now())
	}
}

// find locks the shard of key and returns the entry, or nil with the shard
// unlocked.
func (s *store[T]) find(key string) (*shard[T], *entry[T]) {
	sh := s.shardFor([]byte(key))
	sh.mu.Lock()
	e := sh.m[key]
	if e == nil {
		sh.mu.Unlock()
		return nil, nil
	}
	return sh, e
}

// each calls fn for every entry, one shard locked at a time. fn must not call
// back into the store.
func (s *store[T]) each(fn func(e *entry[T])) {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for _, e := range sh.m {
			fn(e)
		}
		sh.mu.Unlock()
	}
}

// len is the number of tracked keys.
func (s *store[T]) len() int { return int(s.count.Load()) }
