package logs

import (
	"container/heap"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// victim is a key a full store may drop.
type victim struct {
	id       keyID
	settled  bool
	lastSeen time.Time
}

// before reports whether a is dropped before b: settled keys (idle,
// failed, gone quiet) first, least recently logged first.
func (a *victim) before(b *victim) bool {
	if a.settled != b.settled {
		return a.settled
	}
	return a.lastSeen.Before(b.lastSeen)
}

// victims is a max-heap on before: its top is the candidate dropped last
// of those it holds, the one a better candidate replaces.
type victims []victim

func (v victims) Len() int           { return len(v) }
func (v victims) Less(i, j int) bool { return v[j].before(&v[i]) }
func (v victims) Swap(i, j int)      { v[i], v[j] = v[j], v[i] }
func (v *victims) Push(x any)        { *v = append(*v, x.(victim)) }
func (v *victims) Pop() any {
	old := *v
	x := old[len(old)-1]
	*v = old[:len(old)-1]
	return x
}

// evictLocked frees MaxKeys/100 keys (at least one): settled keys first,
// least recently logged first, as the instrument's store evicts. at is the
// time of the line that needs the room: the first one is kept, so that the
// read says from when keys were dropped (LogRead.Evicted).
//
// Past the cap every MaxKeys/100th new key evicts, and a pass over all the
// keys each time (a sort of 100,000 before) made a log of 1 M keys read 12×
// slower than one of 50 k (33 s against 2.7). So one pass chooses the next
// candidatesPasses evictions' victims at once (a bounded heap, no sort of
// every key), and each eviction takes its share of them, skipping a
// candidate logged again since (its lastSeen moved), or gone.
func (s *Store) evictLocked(at time.Time) {
	s.notes.entryGen++ // the notes' entries may be gone (keynote.go)
	n := max(1, s.opts.MaxKeys/100)
	dropped := 0
	for dropped < n {
		if len(s.candidates) == 0 {
			s.candidates = s.chooseVictimsLocked(n * candidatesPasses)
			if len(s.candidates) == 0 {
				break
			}
		}
		v := s.candidates[0]
		s.candidates = s.candidates[1:]
		if e := s.keys[v.id]; e != nil && e.lastSeen.Equal(v.lastSeen) {
			delete(s.keys, v.id)
			dropped++
		}
	}
	s.evicted.Add(int64(dropped))
	if s.evictedSince.Load() == nil {
		s.evictedSince.Store(&at)
	}
}

// candidatesPasses is how many evictions one pass over the keys chooses
// for: 25 times fewer passes, for a choice made up to 25 evictions early
// (a key logged since is skipped; a key new since is among the newest, so
// among the last to go in any case).
const candidatesPasses = 25

// chooseVictimsLocked is the best n keys to drop, best first: one pass
// keeping them in a bounded heap.
func (s *Store) chooseVictimsLocked(n int) []victim {
	now := s.nowLocked()
	h := make(victims, 0, n)
	for id, e := range s.keys {
		st := e.derived(now)
		v := victim{id, st == api.StateIdle || st == api.StateFailed || st == api.StateUnknown, e.lastSeen}
		switch {
		case len(h) < n:
			heap.Push(&h, v)
		case v.before(&h[0]):
			h[0] = v
			heap.Fix(&h, 0)
		}
	}
	// Popped worst first: filled from the end, best first.
	out := make([]victim, len(h))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&h).(victim)
	}
	return out
}
