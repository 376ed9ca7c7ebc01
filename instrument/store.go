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
	// shortKeySize covers most keys in a buffer a fifth the size: the
	// buffer is zeroed on every lookup, and zeroing 320 bytes costs a When
	// a tenth of its time.
	shortKeySize = 64
)

// store holds the entries of one controller. It is sharded so that the
// limiter's When on one key only ever waits for the few operations on keys of
// the same shard, never for a listing of the whole store.
type store[T comparable] struct {
	shards [shardCount]shard[T]
	keyer  keyer[T]
	clock  clock.PassiveClock
	// mono is clock when it is the real one: now reads it without an
	// interface type check or a copy of its epoch.
	mono      *monoClock
	maxKeys   int
	retention time.Duration

	count     atomic.Int64
	evicting  atomic.Bool
	lastSweep atomic.Int64
	// overflow counts records skipped because the store was at its bound.
	overflow atomic.Int64
	// pq says the queue is controller-runtime's priority queue, whose rules for
	// a key's ready time differ from client-go's delaying queue (see schedule).
	pq atomic.Bool
	// seesHandouts says a queue or reconciler decorator reports when a worker
	// takes a key, so a wait consumed by a handout is known.
	seesHandouts atomic.Bool
	// inline says the reconciler decorator records every handout's
	// outcome, in the worker's goroutine between the queue's Get and Done
	// (controller-runtime's loop calls Reconcile for each item it gets): the
	// queue decorator's rate-limited add and Done then have nothing to add,
	// and skip their lookups, and a reconcile starts when the Get recorded
	// (see startedAt). Not with Track: a client-go loop may get a key and
	// never sync it.
	inline atomic.Bool
	// spill keeps a fused limiter's counts of keys the store does not hold.
	spill spill[T]
	// plainErr is the type of the last reconcile error found to wrap
	// nothing (see isTerminal).
	plainErr atomic.Uintptr
}

type shard[T comparable] struct {
	mu sync.Mutex
	m  map[string]*entry[T]
	// last is the entry looked up last: a key's records come in runs (the
	// reconciler decorator records the outcome, then the limiter's When or
	// Forget follows for the same key), so the run's later records skip
	// hashing the key and probing the map.
	last *entry[T]
	// lastTail is last's key as shardAt reads it (last 8 bytes, length): a
	// miss is told here, on the shard's own cache line, without loading
	// the last entry's (a cold line when keys do not come in runs).
	lastTail uint64
	lastLen  int
	index    uint8         // in store.shards, for entry.shard
	_        [64 - 41]byte // one cache line per shard: no false sharing between shards
}

// setLast makes e, whose key is key, the shard's last entry.
func (sh *shard[T]) setLast(e *entry[T], key []byte) {
	sh.last, sh.lastTail, sh.lastLen = e, keyTail(key), len(key)
}

// lastIs returns the shard's last entry if it is item's, whose key reads
// x and n in place.
func (sh *shard[T]) lastIs(item T, x uint64, n int) *entry[T] {
	if sh.lastTail != x || sh.lastLen != n {
		return nil
	}
	if e := sh.last; e != nil && e.item == item {
		return e
	}
	return nil
}

// get returns key's entry, or nil; the shard's lock is held.
func (sh *shard[T]) get(key []byte) *entry[T] {
	if e := sh.last; e != nil && sh.lastLen == len(key) && sh.lastTail == keyTail(key) && e.key == string(key) {
		return e
	}
	e := sh.m[string(key)]
	if e != nil {
		sh.setLast(e, key)
	}
	return e
}

func newStore[T comparable](k keyer[T], c clock.PassiveClock, maxKeys int, retention time.Duration) *store[T] {
	s := &store[T]{keyer: k, clock: c, maxKeys: maxKeys, retention: retention}
	if m, ok := c.(monoClock); ok {
		s.mono = &m
	}
	for i := range s.shards {
		s.shards[i].m = make(map[string]*entry[T])
		s.shards[i].index = uint8(i)
	}
	return s
}

// now is the store's time in Unix nanoseconds, to the microsecond: a history
// slot keeps its time in microseconds, and every time the store keeps is on
// that grid, so that an attempt's time compares exactly with the key's (its
// last reconcile, its last reset).
func (s *store[T]) now() int64 {
	if c := s.mono; c != nil {
		return onGrid(c.nanos()) // skips building a time.Time on the hot path
	}
	return onGrid(s.clock.Now().UnixNano())
}

// onGrid rounds Unix nanoseconds down to the microsecond. After 1970 the
// division is unsigned: a multiply and a shift, without the sign's fix-up.
func onGrid(ns int64) int64 {
	if ns >= 0 {
		return int64(uint64(ns) / uint64(time.Microsecond) * uint64(time.Microsecond))
	}
	return ns - ns%int64(time.Microsecond)
}

// shardFor picks key's shard from one multiply of its last 8 bytes (where
// names differ: "ns/widget-41", "ns/widget-42"). The map hashes the whole key
// anyway; a skewed spread only costs some contention, never correctness.
func (s *store[T]) shardFor(key []byte) *shard[T] {
	return s.shardAt(keyTail(key), len(key))
}

// keyTail is what key's last 8 bytes read for shardFor.
func keyTail(key []byte) uint64 {
	if n := len(key); n >= 8 {
		return binary.LittleEndian.Uint64(key[n-8:])
	}
	var x uint64
	for _, c := range key {
		x = x<<8 | uint64(c)
	}
	return x
}

// shardAt is shardFor of a key of length n whose last bytes read x.
func (s *store[T]) shardAt(x uint64, n int) *shard[T] {
	x = (x ^ uint64(n)) * 0x9E3779B97F4A7C15
	return &s.shards[x>>(64-shardBits)]
}

// itemShard is shardFor(item's key) without building the key, for the item
// types whose key the keyer can read in place; ok is false for the others.
func (s *store[T]) itemShard(item T) (sh *shard[T], x uint64, n int, ok bool) {
	x, n, ok = s.keyer.tail(item)
	if !ok {
		return nil, 0, 0, false
	}
	return s.shardAt(x, n), x, n, true
}

// withEntry runs fn on item's entry under its shard lock, creating the entry
// if needed, marks it seen at now, and reports whether fn ran. A now of 0
// leaves lastSeen as it is (reading the clock is a good share of the cost of
// a When on some machines), except for a new entry. fn must not call back into the store. Known keys
// allocate nothing.
//
// The store never holds more than its hard bound, MaxKeys plus one shard's
// worth: at the bound a new key is not tracked (fn does not run, the overflow
// is counted) until the eviction started in the background makes room. The
// caller may be the priority queue holding its own lock, so nothing here
// waits for an eviction.
func (s *store[T]) withEntry(item T, now int64, fn func(e *entry[T])) bool {
	e, sh := s.lockEntry(item, now)
	if e == nil {
		return false
	}
	fn(e)
	sh.mu.Unlock()
	return true
}

// lockEntry is withEntry without a callback, for the records every
// reconcile makes: it returns item's entry, marked seen at now, with its
// shard locked for the caller to unlock, or nil with nothing locked when
// the store is at its bound. Through a closure, a record's body would read
// and write every variable it shares with its caller through memory.
func (s *store[T]) lockEntry(item T, now int64) (*entry[T], *shard[T]) {
	if sh, x, n, ok := s.itemShard(item); ok {
		sh.mu.Lock()
		if e := sh.lastIs(item, x, n); e != nil {
			// The run's later records: no key built, no map probed.
			if now != 0 {
				e.lastSeen = now
			}
			return e, sh
		}
		if n <= shortKeySize {
			var buf [shortKeySize]byte
			return s.lockEntryIn(sh, s.keyer.append(buf[:0], item), item, now)
		}
		var buf [keyBufSize]byte
		return s.lockEntryIn(sh, s.keyer.append(buf[:0], item), item, now)
	}
	if n := s.keyer.size(item); n >= 0 && n <= shortKeySize {
		var buf [shortKeySize]byte
		return s.lockEntryKey(s.keyer.append(buf[:0], item), item, now)
	}
	var buf [keyBufSize]byte
	return s.lockEntryKey(s.keyer.append(buf[:0], item), item, now)
}

// lockHeld is lockEntry for item when the caller found its entry, e, in an
// earlier record of the same reconcile (see reconciler.Reconcile): e's
// shard is locked directly, without reading the key again, unless e has
// been evicted since, or is nil.
func (s *store[T]) lockHeld(e *entry[T], item T, now int64) (*entry[T], *shard[T]) {
	if e != nil {
		sh := &s.shards[e.shard]
		sh.mu.Lock()
		if !e.removed {
			if now != 0 {
				e.lastSeen = now
			}
			return e, sh
		}
		sh.mu.Unlock()
	}
	return s.lockEntry(item, now)
}

// lockEntryKey is lockEntry for item, whose key is key.
func (s *store[T]) lockEntryKey(key []byte, item T, now int64) (*entry[T], *shard[T]) {
	sh := s.shardFor(key)
	sh.mu.Lock()
	return s.lockEntryIn(sh, key, item, now)
}

// lockEntryIn is lockEntryKey with key's shard sh locked; it unlocks it
// only when it returns nil.
func (s *store[T]) lockEntryIn(sh *shard[T], key []byte, item T, now int64) (*entry[T], *shard[T]) {
	if e := sh.get(key); e != nil {
		if now != 0 {
			e.lastSeen = now
		}
		return e, sh
	}
	if !s.reserve() {
		sh.mu.Unlock()
		s.overflow.Add(1)
		s.startEvict()
		return nil, nil
	}
	e := &entry[T]{key: string(key), item: item, requeues: s.spill.take(item), shard: sh.index}
	sh.m[e.key] = e
	sh.setLast(e, key)
	if now == 0 {
		now = s.now()
	}
	if now != 0 {
		e.lastSeen = now
	}
	if s.count.Load() > int64(s.maxKeys) {
		// Under the lock, but it only starts a goroutine, which waits for
		// it like any reader.
		s.startEvict()
	}
	return e, sh
}

// remove deletes e from its shard, whose lock the caller holds; a count
// its fused limiter still needs is kept aside.
func (s *store[T]) remove(sh *shard[T], e *entry[T]) {
	s.spill.put(e.item, e.requeues)
	delete(sh.m, e.key)
	e.removed = true
	if sh.last == e {
		sh.last, sh.lastTail, sh.lastLen = nil, 0, -1
	}
	s.count.Add(-1)
}

// withItem runs fn on item's entry under its shard lock and reports whether
// the item is tracked; it never creates an entry, and allocates nothing.
func (s *store[T]) withItem(item T, fn func(e *entry[T])) bool {
	e, sh := s.lockItem(item)
	if e == nil {
		return false
	}
	fn(e)
	sh.mu.Unlock()
	return true
}

// lockItem is withItem without a callback, as lockEntry: item's entry with
// its shard locked for the caller to unlock, or nil with nothing locked.
func (s *store[T]) lockItem(item T) (*entry[T], *shard[T]) {
	if sh, x, n, ok := s.itemShard(item); ok {
		sh.mu.Lock()
		e := sh.lastIs(item, x, n)
		if e == nil {
			if n <= shortKeySize {
				var buf [shortKeySize]byte
				e = sh.get(s.keyer.append(buf[:0], item))
			} else {
				var buf [keyBufSize]byte
				e = sh.get(s.keyer.append(buf[:0], item))
			}
		}
		if e == nil {
			sh.mu.Unlock()
			return nil, nil
		}
		return e, sh
	}
	var e *entry[T]
	var sh *shard[T]
	lock := func(key []byte) {
		sh = s.shardFor(key)
		sh.mu.Lock()
		if e = sh.get(key); e == nil {
			sh.mu.Unlock()
		}
	}
	if n := s.keyer.size(item); n >= 0 && n <= shortKeySize {
		var buf [shortKeySize]byte
		lock(s.keyer.append(buf[:0], item))
	} else {
		var buf [keyBufSize]byte
		lock(s.keyer.append(buf[:0], item))
	}
	if e == nil {
		return nil, nil
	}
	return e, sh
}

// withKey is withItem for a key as the endpoint names it.
func (s *store[T]) withKey(key string, fn func(e *entry[T])) bool {
	return s.withKeyBytes([]byte(key), fn)
}

func (s *store[T]) withKeyBytes(key []byte, fn func(e *entry[T])) bool {
	sh := s.shardFor(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.get(key)
	if e == nil {
		return false
	}
	fn(e)
	return true
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
