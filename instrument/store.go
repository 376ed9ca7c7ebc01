package instrument

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/utils/clock"
)

const (
	shardBits  = 6
	shardCount = 1 << shardBits
	// keyBufSize covers namespace/name keys (253+1+63) without a heap buffer.
	keyBufSize = 320
)

// store holds the entries of one controller. It is sharded so that the
// limiter's When on one key only ever waits for the few operations on keys of
// the same shard, never for a listing of the whole store.
type store[T comparable] struct {
	shards    [shardCount]shard[T]
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
	_  [64 - 16]byte // one cache line per shard: no false sharing between shards
}

func newStore[T comparable](k keyer[T], c clock.PassiveClock, maxKeys int, retention time.Duration) *store[T] {
	s := &store[T]{keyer: k, clock: c, maxKeys: maxKeys, retention: retention}
	for i := range s.shards {
		s.shards[i].m = make(map[string]*entry[T])
	}
	return s
}

// now is the store's time in Unix nanoseconds.
func (s *store[T]) now() int64 {
	if c, ok := s.clock.(monoClock); ok {
		return c.nanos() // skips building a time.Time on the hot path
	}
	return s.clock.Now().UnixNano()
}

// shardFor picks key's shard from one multiply of its last 8 bytes (where
// names differ: "ns/widget-41", "ns/widget-42"). The map hashes the whole key
// anyway; a skewed spread only costs some contention, never correctness.
func (s *store[T]) shardFor(key []byte) *shard[T] {
	var x uint64
	if n := len(key); n >= 8 {
		x = binary.LittleEndian.Uint64(key[n-8:])
	} else {
		for _, c := range key {
			x = x<<8 | uint64(c)
		}
	}
	x = (x ^ uint64(len(key))) * 0x9E3779B97F4A7C15
	return &s.shards[x>>(64-shardBits)]
}

// acquire locks item's shard and returns its entry, creating it if needed, and
// marks it seen at now. A now of 0 leaves lastSeen as it is (reading the clock
// is a good share of the cost of a When on some machines), except for a new
// entry. The caller must call s.release(sh) when done. Known keys allocate
// nothing.
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
		if now == 0 {
			now = s.now()
		}
	}
	if now != 0 {
		e.lastSeen = now
	}
	return sh, e
}

// release unlocks sh and, if the store grew past its bound, trims it in the
// background: the caller may be the priority queue, holding its own lock.
func (s *store[T]) release(sh *shard[T]) {
	sh.mu.Unlock()
	if s.count.Load() > int64(s.maxKeys) && !s.evicting.Load() {
		go s.evict(s.now())
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
