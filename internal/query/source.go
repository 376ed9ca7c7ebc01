package query

import (
	"context"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Source is what the v1 handler serves: the instrument's store, a log
// store, a snapshot. It hands over views of its keys; the handler does the
// rest (parameters, admission, filtering, ranking, paging, grouping,
// errors), so that every rule of the API holds for every source alike.
type Source interface {
	// Names are the controllers' names, sorted.
	Names() []string
	// Now is the source's clock: what the time of a view would be.
	Now() time.Time
	// Controllers is v1/controllers: every controller, sorted by name, and
	// the time of the view.
	Controllers(ctx context.Context) (*api.ControllerList, error)
	// View is one consistent reading of the keys of the controllers named
	// (a View names them by index in names), and the time it was read at.
	View(ctx context.Context, names []string) (time.Time, View, error)
	// Key is one key with its history. controller may be "" where the
	// source can tell which it means (one controller, or one with the key);
	// a key no controller has is a NotFound Error.
	Key(controller, key string) (*api.KeyDetail, error)
}

// View is one reading of a source's keys.
type View interface {
	// Scan hands visit every key, in batches. A batch is visit's only
	// until it returns: a source may reuse it. Scan stops at visit's
	// first error, and returns it.
	Scan(ctx context.Context, visit func(ctrl int, batch []Item) error) error
	// Brief is one key as a page of v1/keys shows it (no history), from
	// the Item Scan gave (Ref is the source's own handle on it); false when
	// the key has gone since.
	Brief(ctrl int, it *Item) (api.Key, bool)
}

// Item is what the handler reads of one key to filter, rank and group it:
// a few words copied once per key, so that a list of 100,000 keys never
// builds their full views. Times are Unix nanoseconds, 0 when unknown.
type Item struct {
	Key                                            string
	LastError                                      string // the last error's message, "" without one
	Class                                          string // the last error's class, as api.ErrorRecord.Class has it
	State                                          api.State
	Failures                                       int
	NextRetry, FirstFailure, QueuedAt, LastErrorAt int64
	// Ref is the source's own handle on the key (an index, say), carried
	// untouched to Brief.
	Ref int
}

// rankInput is what api.SortRank looks at.
func (it *Item) rankInput() api.RankInput {
	return api.RankInput{State: it.State, Failures: it.Failures, NextRetry: it.NextRetry,
		FirstFailure: it.FirstFailure, QueuedAt: it.QueuedAt}
}

// KeysView is a View over keys a source already holds as wire values (a
// log store's views, a snapshot's keys): ctrl is the index of each key's
// controller in names; a key of a controller not in names is left out.
func KeysView(names []string, keys []api.Key) View {
	at := make(map[string]int, len(names))
	for i, n := range names {
		at[n] = i
	}
	return &keysView{at: at, keys: keys}
}

type keysView struct {
	at   map[string]int
	keys []api.Key
}

// batchSize is how many items a KeysView hands over at once: a batch is
// reused, so a scan of any size costs one.
const batchSize = 256

func (v *keysView) Scan(ctx context.Context, visit func(int, []Item) error) error {
	batch := make([]Item, 0, batchSize)
	ctrl := -1
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := visit(ctrl, batch)
		batch = batch[:0]
		return err
	}
	for i := range v.keys {
		k := &v.keys[i]
		c, ok := v.at[k.Controller]
		if !ok {
			continue
		}
		if c != ctrl || len(batch) == batchSize {
			if err := flush(); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			ctrl = c
		}
		it := Item{Key: k.Key, State: k.State, Failures: k.Failures, Ref: i,
			NextRetry: UnixNano(k.NextRetryAt), FirstFailure: UnixNano(k.FirstFailureAt), QueuedAt: UnixNano(k.QueuedAt)}
		if e := k.LastError; e != nil {
			it.LastError, it.Class, it.LastErrorAt = e.Message, e.Class, UnixNano(e.At)
		}
		batch = append(batch, it)
	}
	return flush()
}

func (v *keysView) Brief(_ int, it *Item) (api.Key, bool) { return v.keys[it.Ref], true }
