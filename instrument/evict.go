package instrument

import (
	"cmp"
	"slices"
	"time"
)

// evictSlack is the share of MaxKeys freed by one eviction pass beyond the
// bound itself, so that a store at its bound does not scan on every new key:
// a flood of new keys costs one pass per MaxKeys/evictSlack of them.
const evictSlack = 20 // 5%

// sweepEvery spaces the expiry sweeps run from reads.
func (s *store[T]) sweepEvery() time.Duration { return s.retention / 10 }

// maybeSweep expires idle keys past the retention window, at most once per
// sweepEvery. Reads call it, so a store nobody looks at costs no sweeping.
func (s *store[T]) maybeSweep(now int64) {
	last := s.lastSweep.Load()
	if now-last < int64(s.sweepEvery()) || !s.lastSweep.CompareAndSwap(last, now) {
		return
	}
	s.sweep(now)
}

// sweep expires idle keys past the retention window.
func (s *store[T]) sweep(now int64) {
	cutoff := now - int64(s.retention)
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for _, e := range sh.m {
			if e.evictable() && e.lastSeen < cutoff {
				s.remove(sh, e)
			}
		}
		sh.mu.Unlock()
	}
}

// evictable reports whether the entry is settled: idle, nothing pending.
func (e *entry[T]) evictable() bool {
	return e.stored == stIdle && !e.running && e.queuedAt == 0
}

type victim struct {
	shard    int
	key      string
	lastSeen int64
	idle     bool
}

// evict brings the store back under MaxKeys: expired keys go first, then idle
// keys oldest first, then (only if every key is busy) the oldest of the rest.
// It runs with s.evicting taken (startEvict), until the store is under its
// bound, also when keys keep arriving meanwhile, so that once it has run the
// bound holds.
func (s *store[T]) evict() {
	for {
		s.maybeSweep(s.now()) // expired keys first, at most once per sweepEvery
		for excess := s.len() - s.maxKeys; excess > 0; excess = s.len() - s.maxKeys {
			s.trim(excess + s.maxKeys/evictSlack)
		}
		s.evicting.Store(false)
		// A key inserted while the flag was still set started no eviction:
		// look once more, and take the flag back if it is needed.
		if s.len() <= s.maxKeys || !s.evicting.CompareAndSwap(false, true) {
			return
		}
	}
}

// trim removes n keys, idle ones first, oldest first.
func (s *store[T]) trim(n int) {
	var victims []victim
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for k, e := range sh.m {
			victims = append(victims, victim{shard: i, key: k, lastSeen: e.lastSeen, idle: e.evictable()})
		}
		sh.mu.Unlock()
	}
	slices.SortFunc(victims, func(a, b victim) int {
		if a.idle != b.idle {
			if a.idle {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.lastSeen, b.lastSeen)
	})
	for _, v := range victims[:min(n, len(victims))] {
		sh := &s.shards[v.shard]
		sh.mu.Lock()
		if e, ok := sh.m[v.key]; ok {
			s.remove(sh, e)
		}
		sh.mu.Unlock()
	}
}

// hardMax is the most keys the store holds: MaxKeys plus one shard's share of
// slack, so that keys arriving while an eviction runs are still recorded.
func (s *store[T]) hardMax() int64 { return int64(s.maxKeys + max(1, s.maxKeys/shardCount)) }

// reserve counts one more key unless the store is at its hard bound. A
// compare-and-swap, not a check then an add, so that concurrent inserts in
// different shards cannot pass the bound together.
func (s *store[T]) reserve() bool {
	hard := s.hardMax()
	for {
		n := s.count.Load()
		if n >= hard {
			return false
		}
		if s.count.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// startEvict trims the store in the background, unless a trim is under way:
// the flag is taken here, so a flood of new keys starts one goroutine, not
// one per key.
func (s *store[T]) startEvict() {
	if s.evicting.CompareAndSwap(false, true) {
		go s.evict()
	}
}
